export { PLAYGROUND } from './playground-ids.ts';
export { PlaygroundChannel, type ChannelEvent, type PlaygroundMessage } from './playground-channel.ts';
export { startDiscordEmulator, type DiscordEmulator } from './discord-emulator.ts';
export { PlaygroundGateway, type SendResult } from './playground-gateway.ts';
export { parseCommandLine, type ParsedCommandLine } from './parse-command-line.ts';
export { PLAYGROUND_CHANNELS, PLAYGROUND_PERSONAS, playgroundGuildFacts, playgroundGuildFactsSource, type PlaygroundPersona } from './playground-server.ts';
export type { PlaygroundView } from './playground-gateway.ts';
