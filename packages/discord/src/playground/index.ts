export { PLAYGROUND } from './playground-ids.ts';
export { PlaygroundChannel, type ChannelEvent, type PlaygroundMessage } from './playground-channel.ts';
export { startDiscordEmulator, type DiscordEmulator } from './discord-emulator.ts';
export { PlaygroundGateway, type SendResult } from './playground-gateway.ts';
export { parseCommandLine, type ParsedCommandLine } from './parse-command-line.ts';
export { PLAYGROUND_CHANNELS, PLAYGROUND_PERSONAS, playgroundChannelsFor, pretendGuild, type PlaygroundPersona } from './playground-server.ts';
export { PRETEND_SERVER, PRETEND_THREAD, PRETEND_FORUM_ID, type PretendChannel, type PretendMessage } from './playground-seed.ts';
export { pretendHistory } from './pretend-history.ts';
export type { PlaygroundView } from './playground-gateway.ts';
