import { beforeAll, expect, it } from 'vitest';
import { EVERYTHING, withWorkspace } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createLocalEmbedder } from '@brain/embeddings';
import { countTermPassages } from '../src/queries/count-term-passages.ts';
import { createWorkspace, seedDocs } from './seed.ts';

const embedder = createLocalEmbedder();

describeDb('how many passages hold each word of a question', (suite) => {
  let ws = '';

  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'term-counts');
    // 20 passages: "logger" in all, "level" in 8, "default" in 4, "zorblax" in 1.
    const passages = Array.from({ length: 20 }, (_, i) =>
      ['The logger writes lines.', i < 8 ? 'Each level filters lines.' : '', i < 4 ? 'The default is quiet.' : '', i === 0 ? 'Zorblax mode.' : ''].join(' '),
    );
    await seedDocs(suite.db, ws, embedder, [{ title: 'Logger', passages }]);
  });

  const count = (tokens: string[]) => withWorkspace(suite.db, ws, (tx) => countTermPassages(tx, ws, EVERYTHING, tokens));

  it('stops counting at the generic share when some word is rarer', async () => {
    const stats = await count(['logger', 'level', 'zorblax']);
    expect(stats.documents).toBe(20);
    // Generic from 3 passages in a workspace of 20: counting stops there.
    expect(Object.fromEntries(stats.frequencies)).toEqual({ logger: 3, level: 3, zorblax: 1 });
  });

  it('counts on, up to half the workspace, when every word of the question is generic', async () => {
    const stats = await count(['logger', 'level', 'default', 'the']);
    expect(Object.fromEntries(stats.frequencies)).toEqual({ logger: 10, level: 8, default: 4, the: 20 });
    expect(stats.cap).toBe(10);
  });
});
