export { startFakeHttpServer, type FakeHandler, type FakeHttpServer, type FakeResponse, type RecordedRequest } from './fake-http-server.ts';
export { startFakeDiscord, type DiscordWebhookCall, type FakeDiscord } from './fake-discord.ts';
export {
  startFakeOpenAI,
  type ChatRequestBody,
  type ChatResponder,
  type ChatResponse,
  type EmbeddingCall,
  type FakeOpenAI,
  type FakeOpenAIOptions,
  type ScriptedFailure,
} from './fake-openai.ts';
