import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { expectNoMoreCalls, startFakeOpenAI, waitUntil } from '../src/index.ts';

describe('startFakeOpenAI', async () => {
  const fake = await startFakeOpenAI({ apiKey: 'sk-fake' });
  afterAll(() => fake.close());
  const client = new OpenAI({ apiKey: 'sk-fake', baseURL: fake.url, maxRetries: 0, organization: null, project: null });

  it('answers chat completions through the real SDK with a pluggable responder', async () => {
    fake.setChatResponder((body) => `echo: ${String(body.messages.at(-1)?.content)}`);
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0]?.message.content).toBe('echo: hi');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(fake.chatCalls.at(-1)).toMatchObject({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
  });

  it('streams the same answer as server-sent events', async () => {
    fake.setChatResponder(() => ({ content: 'one two three', finishReason: 'length' }));
    const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true });
    let text = '';
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe('one two three');
    expect(finish).toBe('length');
  });

  it('plays scripted failures in order, with their headers, then answers again', async () => {
    fake.failNext('chat', 1, { status: 429, headers: { 'retry-after': '7' } });
    fake.failNext('chat', 1, { status: 500 });
    const request = () => client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    await expect(request()).rejects.toMatchObject({ status: 429, headers: expect.any(Headers) as unknown });
    await expect(request()).rejects.toMatchObject({ status: 500 });
    await expect(request()).resolves.toBeDefined();
  });

  it('refuses a wrong key, and enforces the embeddings limits of the real API', async () => {
    const wrong = new OpenAI({ apiKey: 'sk-other', baseURL: fake.url, maxRetries: 0 });
    await expect(wrong.embeddings.create({ model: 'text-embedding-3-small', input: 'x' })).rejects.toMatchObject({ status: 401 });
    const tooMany = Array.from({ length: 2049 }, (_, i) => `t${i}`);
    await expect(client.embeddings.create({ model: 'text-embedding-3-small', input: tooMany })).rejects.toMatchObject({ status: 400 });
    await expect(client.embeddings.create({ model: 'text-embedding-3-small', input: 'x'.repeat(40_000) })).rejects.toMatchObject({ status: 400 });
    await expect(client.embeddings.create({ model: 'text-embedding-ada-002', input: 'x', dimensions: 1536 })).rejects.toMatchObject({ status: 400 });
    const ok = await client.embeddings.create({ model: 'text-embedding-3-large', input: ['a', 'b'], dimensions: 256 });
    expect(ok.data.map((d) => d.embedding.length)).toEqual([256, 256]);
    // Deterministic per text, and (like any client should assume) placed by `index`, not by position.
    expect(ok.data.find((d) => d.index === 0)?.embedding).toEqual(fake.vectorFor('a', 256));
    expect(fake.embeddingCalls.map((c) => c.status)).toEqual([401, 400, 400, 400, 200]);
  });

  it('answers the vectors a test asks for (vectorFor), and reports them through vectorFor()', async () => {
    const topic = (input: string, dimensions: number) => fake.vectorFor(/deploy/i.test(input) ? 'deploys' : input, dimensions);
    const topical = await startFakeOpenAI({ vectorFor: topic });
    try {
      const client = new OpenAI({ apiKey: 'k', baseURL: topical.url, maxRetries: 0 });
      const out = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['When do we deploy?', 'Deploys go out on Tuesdays.', 'Lunch'] });
      const [question, note, other] = [0, 1, 2].map((i) => out.data.find((d) => d.index === i)?.embedding);
      expect(question).toEqual(note);
      expect(question).toEqual(fake.vectorFor('deploys', 1536));
      expect(other).toEqual(fake.vectorFor('Lunch', 1536));
      expect(topical.vectorFor('When do we deploy?', 1536)).toEqual(question);
    } finally {
      await topical.close();
    }
  });

  it('holds requests to a route, recorded on arrival, until released', async () => {
    const release = fake.hold('embeddings');
    const calls = fake.embeddingCalls.length;
    const answers: string[] = [];
    const request = client.embeddings.create({ model: 'text-embedding-3-small', input: 'held' }).then(() => answers.push('answered'));
    await waitUntil(() => fake.embeddingCalls.length > calls, { what: 'the held request to arrive' });
    await expectNoMoreCalls(answers, 100);
    expect(answers).toEqual([]);
    release();
    await request;
    expect(answers).toEqual(['answered']);
  });
});
