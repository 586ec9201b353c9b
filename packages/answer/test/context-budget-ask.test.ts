import { EVERYTHING } from '@brain/db';
import { beforeAll, expect, it } from 'vitest';
import { estimateTokens } from '@brain/chunking';
import { describeDb } from '@brain/db/testing';
import { createLocalEmbedder } from '@brain/embeddings';
import { ask } from '../src/ask.ts';
import type { Answerer, AnswerRequest } from '../src/types.ts';
import { createWorkspace, queryRows, seedDocs, testLogger } from './seed.ts';

const embedder = createLocalEmbedder();

/** A long passage about refunds: about 120 sentences, far more than a fair share of 2,000 tokens. */
function longPassage(topic: string): string {
  return Array.from({ length: 120 }, (_, i) => `Refund rule ${i} for ${topic} says the refund is handled by team ${i % 7}.`).join(' ');
}

describeDb('ask: context budget', (suite) => {
  let ws = '';
  const seen: AnswerRequest[] = [];
  const answerer: Answerer = {
    kind: 'llm',
    model: 'capture',
    async answer(req) {
      seen.push(req);
      return { text: 'Refunds are handled by a team [1].', model: 'capture', kind: 'llm' };
    },
  };

  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'long');
    await seedDocs(
      suite.db,
      ws,
      embedder,
      ['cards', 'invoices', 'plans', 'coupons', 'bank transfers'].map((topic) => ({ title: `Refunds: ${topic}`, passages: [longPassage(topic)] })),
    );
  });

  it('sends at most 2,000 tokens of passages, cutting the longest, and says it trimmed', async () => {
    const result = await ask({ db: suite.db, embedder, answerer, logger: testLogger().logger }, { workspaceId: ws, question: 'How are refunds handled?', surface: 'cli', audience: EVERYTHING });
    const passages = seen[0]?.passages ?? [];
    expect(passages).toHaveLength(5);
    const tokens = passages.reduce((sum, p) => sum + estimateTokens(p.content), 0);
    expect(tokens).toBeLessThanOrEqual(2000);
    expect(tokens).toBeGreaterThan(1500); // trimmed to the budget, not far below it
    expect(passages.every((p) => p.truncated)).toBe(true);
    expect(result.trimmed).toBe(true);
    const [row] = await queryRows(suite.db, ws);
    expect(row).toMatchObject({ trimmed: true });
    expect(row?.retrieved.every((r) => r.truncated && r.in_context)).toBe(true);
  });

  it('keeps everything, untrimmed, when a larger budget allows it', async () => {
    seen.length = 0;
    const result = await ask(
      { db: suite.db, embedder, answerer, logger: testLogger().logger, contextTokens: 100_000 },
      { workspaceId: ws, question: 'How are refunds handled?', surface: 'cli', audience: EVERYTHING },
    );
    expect(result.trimmed).toBe(false);
    expect(seen[0]?.passages.some((p) => p.truncated)).toBe(false);
  });
});
