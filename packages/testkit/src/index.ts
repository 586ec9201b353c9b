export { startFakeHttpServer, type FakeHandler, type FakeHttpServer, type FakeResponse, type RecordedRequest } from './fake-http-server.ts';
export { startFakeDiscord, type DiscordWebhookCall, type FakeDiscord } from './fake-discord.ts';
