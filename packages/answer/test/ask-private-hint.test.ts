import { beforeAll, expect, it } from 'vitest';
import { audienceKeys, withService, type AudienceFilter } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createLocalEmbedder } from '@brain/embeddings';
import { ask } from '../src/ask.ts';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import type { AskResult } from '../src/types.ts';
import { createWorkspace, queryRows, seedDocs, testLogger } from './seed.ts';

const embedder = createLocalEmbedder();
const STAFF = 'channel:100000000000000005';
const PUBLIC_ONLY = audienceKeys(['workspace']);
const WITH_STAFF = audienceKeys(['workspace', STAFF]);
const QUESTION = 'When are the layoffs planned?';

/** Two servers alike but for what their staff-only note says: the public replies must not differ. */
const HIDDEN = [
  'Layoffs are planned for March 3; keep this quiet until the all-hands meeting.',
  'The layoffs are planned for June 9 in the Berlin office, two teams, announced by the CEO herself.',
];

describeDb('ask: the “a private answer is available” hint', (suite) => {
  const workspaces: string[] = [];
  const { logger } = testLogger();
  const deps = () => ({ db: suite.db, embedder, answerer: createExtractiveAnswerer(), logger });

  beforeAll(async () => {
    for (const [i, hidden] of HIDDEN.entries()) {
      const id = await createWorkspace(suite.db, `hint-${i}`);
      workspaces.push(id);
      await seedDocs(suite.db, id, embedder, [{ title: 'Office hours', passages: ['Office hours are on Tuesdays at 15:00 UTC in the voice channel.'] }]);
      const [staff] = await seedDocs(suite.db, id, embedder, [{ title: i === 0 ? 'Staff note' : 'Confidential: Berlin restructuring', passages: [hidden] }]);
      await withService(suite.db, (tx) => tx.query('update artifacts set audience = $2 where id = $1', [staff?.artifactId, STAFF]));
    }
  });

  /** One public ask, counting how often the wider audience is asked for. */
  async function publicAsk(workspaceId: string, question: string, wider: AudienceFilter | undefined): Promise<{ result: AskResult; widened: number }> {
    let widened = 0;
    const result = await ask(deps(), {
      workspaceId,
      question,
      audience: PUBLIC_ONLY,
      surface: 'discord',
      ...(wider
        ? {
            privateAudience: async () => {
              widened += 1;
              return wider;
            },
          }
        : {}),
    });
    return { result, widened };
  }

  const withoutId = (r: AskResult) => JSON.stringify({ ...r, queryId: '' });

  it('says a private answer is available when only the asker’s own audience covers the question', async () => {
    const { result, widened } = await publicAsk(workspaces[0] ?? '', QUESTION, WITH_STAFF);
    expect(widened).toBe(1);
    expect(result.privateAnswerAvailable).toBe(true);
    expect(result.grounded).toBe(false);
    expect(result.citations).toEqual([]);
    expect(JSON.stringify(result)).not.toMatch(/March|Staff note|100000000000000005|quiet/);
  });

  it('is byte-identical whatever the hidden source says (title, wording, date)', async () => {
    const [first, second] = await Promise.all(workspaces.map((w) => publicAsk(w, QUESTION, WITH_STAFF)));
    expect(first?.result.privateAnswerAvailable).toBe(true);
    expect(withoutId(first?.result as AskResult)).toBe(withoutId(second?.result as AskResult));
    // And the same as a reply with no hint at all, but for the flag itself.
    const plain = await publicAsk(workspaces[1] ?? '', QUESTION, undefined);
    expect(plain.result.privateAnswerAvailable).toBe(false);
    expect(withoutId({ ...plain.result, privateAnswerAvailable: true })).toBe(withoutId(second?.result as AskResult));
  });

  it('gives no hint when the asker cannot read the covering source either, or when the audiences are the same', async () => {
    expect((await publicAsk(workspaces[0] ?? '', QUESTION, audienceKeys(['workspace', 'channel:100000000000000099']))).result.privateAnswerAvailable).toBe(false);
    expect((await publicAsk(workspaces[0] ?? '', QUESTION, PUBLIC_ONLY)).result.privateAnswerAvailable).toBe(false);
  });

  it('costs nothing when the first search answers: the wider audience is never asked for', async () => {
    const { result, widened } = await publicAsk(workspaces[0] ?? '', 'When are the office hours?', WITH_STAFF);
    expect(result.grounded).toBe(true);
    expect(result.privateAnswerAvailable).toBe(false);
    expect(widened).toBe(0);
  });

  it('records on the queries row the audience the answer was allowed to cite', async () => {
    const operator = await ask(deps(), { workspaceId: workspaces[0] ?? '', question: QUESTION, audience: { kind: 'everything' }, surface: 'cli' });
    const rows = await queryRows(suite.db, workspaces[0] ?? '');
    const byId = new Map(rows.map((r) => [r.id, r.audience]));
    expect(byId.get(operator.queryId)).toEqual({ kind: 'everything' });
    expect(rows.filter((r) => r.surface === 'discord').map((r) => r.audience)).toContainEqual({ kind: 'keys', keys: ['workspace'] });
  });

  it('records on the queries row whether the reply gave the hint', async () => {
    const shown = await publicAsk(workspaces[0] ?? '', QUESTION, WITH_STAFF);
    const notShown = await publicAsk(workspaces[0] ?? '', QUESTION, PUBLIC_ONLY);
    const grounded = await publicAsk(workspaces[0] ?? '', 'When are the office hours?', WITH_STAFF);
    const byId = new Map((await queryRows(suite.db, workspaces[0] ?? '')).map((r) => [r.id, r.private_hint_shown]));
    expect(shown.result.privateAnswerAvailable).toBe(true);
    expect(byId.get(shown.result.queryId)).toBe(true);
    expect(byId.get(notShown.result.queryId)).toBe(false);
    expect(byId.get(grounded.result.queryId)).toBe(false);
  });
});
