export { startFakeHttpServer, type FakeHandler, type FakeHttpServer, type FakeResponse, type RecordedRequest } from './fake-http-server.ts';
