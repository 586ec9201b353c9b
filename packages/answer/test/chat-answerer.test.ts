import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError, type ErrorCode } from '@brain/errors';
import { startFakeOpenAI, startFakeHttpServer, type FakeOpenAI } from '@brain/testkit';
import { createChatAnswerer } from '../src/chat-answerer.ts';
import { buildChatMessages } from '../src/prompt.ts';
import type { Passage } from '../src/types.ts';

const passages: Passage[] = [
  { n: 1, title: 'Billing FAQ', url: 'https://docs.acme.test/billing', heading: 'Refunds', content: 'Refunds take five business days.' },
];
const request = { question: 'How long do refunds take?', passages };

describe('createChatAnswerer', () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI({ apiKey: 'sk-test' });
  });
  afterAll(async () => fake.close());

  const answerer = (overrides: Partial<Parameters<typeof createChatAnswerer>[0]> = {}) =>
    createChatAnswerer({ apiKey: 'sk-test', baseUrl: fake.url, model: 'gpt-test', maxRetries: 0, timeoutMs: 2_000, ...overrides });

  it('sends the rules, the fenced passages and the question at temperature 0, and returns the text', async () => {
    fake.setChatResponder(() => 'Refunds take five business days [1].');
    const out = await answerer().answer(request);
    expect(out).toEqual({ text: 'Refunds take five business days [1].', model: 'gpt-test', kind: 'llm' });
    const sent = fake.chatCalls.at(-1);
    expect(sent?.model).toBe('gpt-test');
    expect(sent?.temperature).toBe(0);
    expect(sent?.messages).toEqual(buildChatMessages(request.question, passages));
    expect(fake.server.requests.at(-1)?.headers.authorization).toBe('Bearer sk-test');
  });

  const failures: [string, () => Promise<unknown>, ErrorCode][] = [
    ['a refused key', () => answerer({ apiKey: 'sk-wrong' }).answer(request), 'ANSWER_MODEL_AUTH'],
    [
      'an unknown model',
      async () => {
        fake.failNext('chat', 1, { status: 404, code: 'model_not_found' });
        return answerer().answer(request);
      },
      'ANSWER_MODEL_NOT_FOUND',
    ],
    [
      'rate limiting that outlasts the retries',
      async () => {
        fake.failNext('chat', 2, { status: 429, headers: { 'retry-after-ms': '10' } });
        return answerer({ maxRetries: 1 }).answer(request);
      },
      'ANSWER_MODEL_RATE_LIMITED',
    ],
    [
      'a server error',
      async () => {
        fake.failNext('chat', 1, { status: 500 });
        return answerer().answer(request);
      },
      'ANSWER_MODEL_FAILED',
    ],
    [
      'an empty answer',
      async () => {
        fake.setChatResponder(() => '   ');
        return answerer().answer(request);
      },
      'ANSWER_MODEL_EMPTY',
    ],
  ];
  for (const [what, run, code] of failures) {
    it(`turns ${what} into ${code}, with a next step`, async () => {
      const error = await run().catch((e: unknown) => e);
      expect(isAppError(error, code)).toBe(true);
      expect((error as { nextStep?: string }).nextStep).toBeTruthy();
    });
  }

  it('turns a model slower than its timeout into ANSWER_MODEL_TIMEOUT', async () => {
    fake.setChatResponder(() => 'late [1]');
    fake.setLatency(1_500);
    try {
      const started = Date.now();
      const error = await answerer({ timeoutMs: 200 }).answer(request).catch((e: unknown) => e);
      expect(isAppError(error, 'ANSWER_MODEL_TIMEOUT')).toBe(true);
      expect(Date.now() - started).toBeLessThan(1_400);
    } finally {
      fake.setLatency(0);
    }
  });

  it('turns an endpoint that is down into ANSWER_MODEL_UNREACHABLE', async () => {
    const gone = await startFakeHttpServer('gone');
    const url = `${gone.url}/v1`;
    await gone.close();
    const error = await createChatAnswerer({ baseUrl: url, model: 'm', maxRetries: 0 }).answer(request).catch((e: unknown) => e);
    expect(isAppError(error, 'ANSWER_MODEL_UNREACHABLE')).toBe(true);
  });
});
