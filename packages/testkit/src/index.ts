export { startFakeHttpServer, type FakeHandler, type FakeHttpServer, type FakeResponse, type RecordedRequest } from './fake-http-server.ts';
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
export { assemblePdf, bombPdf, encryptedPdf, textPdf, textlessPdf, type TextPdfOptions } from './pdf-fixtures.ts';
