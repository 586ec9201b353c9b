export { PLAYGROUND } from './playground-ids.ts';
export { PlaygroundChannel, type ChannelEvent, type PlaygroundMessage } from './playground-channel.ts';
export { startDiscordEmulator, type DiscordEmulator } from './discord-emulator.ts';
export { PlaygroundGateway, type SendResult } from './playground-gateway.ts';
export { parseCommandLine, type ParsedCommandLine } from './parse-command-line.ts';
