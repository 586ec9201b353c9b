import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@brain/config';
import { isAppError } from '@brain/errors';
import { startFakeOpenAI } from '@brain/testkit';
import { createEmbedder } from '../src/index.ts';

const fake = await startFakeOpenAI({ apiKey: 'sk-config' });
afterAll(() => fake.close());

const configFrom = (env: Record<string, string>) => {
  const config = loadConfig(env, { cwd: '/tmp' });
  return { ...config.embedding, apiKey: config.openai.apiKey, baseUrl: config.openai.baseUrl };
};

describe('createEmbedder', () => {
  it('uses the local embedder when nothing is configured', async () => {
    const embedder = createEmbedder(configFrom({}));
    expect(embedder.model).toBe('local-hash-v2');
    expect(await embedder.embed(['x'])).toHaveLength(1);
  });

  it('uses the OpenAI-compatible provider, with its URL and key, once a key is set', async () => {
    const embedder = createEmbedder(configFrom({ OPENAI_API_KEY: 'sk-config', OPENAI_BASE_URL: fake.url }));
    expect(embedder.model).toBe('text-embedding-3-small');
    const [vector] = await embedder.embed(['hello']);
    expect(vector).toEqual(fake.vectorFor('hello', 1536));
    expect(fake.server.requests.at(-1)?.headers.authorization).toBe('Bearer sk-config');
  });

  it('keeps local vectors when asked to, even with a key (answers by model, embeddings local)', () => {
    expect(createEmbedder(configFrom({ OPENAI_API_KEY: 'sk-config', EMBEDDING_MODEL: 'local-hash-v1' })).model).toBe('local-hash-v1');
  });

  it('builds either local model by name, with or without a key', () => {
    expect(createEmbedder(configFrom({ EMBEDDING_MODEL: 'local-hash-v2' })).model).toBe('local-hash-v2');
    expect(createEmbedder(configFrom({ OPENAI_API_KEY: 'sk-config', EMBEDDING_MODEL: 'local-hash-v2' })).model).toBe('local-hash-v2');
  });

  it('refuses a provider model without a provider', () => {
    try {
      createEmbedder(configFrom({ EMBEDDING_MODEL: 'text-embedding-3-large' }));
      expect.unreachable();
    } catch (error) {
      expect(isAppError(error, 'EMBEDDING_MODEL_UNKNOWN')).toBe(true);
      expect((error as { nextStep: string }).nextStep).toContain('OPENAI_API_KEY');
      expect((error as Error).message).toContain('local-hash-v1 and local-hash-v2');
    }
  });
});
