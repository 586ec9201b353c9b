/**
 * match_artifacts called by keys that hold the whole everyone set (20261202170000, 20261204170000):
 * the vector leg searches the flagged passages through their partial HNSW index and the others
 * (exactly when few, else through their own index), and merges the two by distance. While the
 * flags follow the stored guild facts the flagged part takes every flagged passage unchecked;
 * whenever that would not be exact (flags that lag the facts, keys that lack part of the everyone
 * set, no facts) it checks each candidate's keys. Either way it must return what the same keys
 * return on the exact path.
 */
import { beforeAll, expect, it } from 'vitest';
import { toVectorLiteral, withService, withWorkspace, type Queryable } from '../src/index.ts';
import { describeDb } from '../src/testing/index.ts';
import { bulkLoadChunks, createArtifact, createWorkspace, flaggedScanKinds, indexScans, insertChunks, nearVector, plansOf, RESTRICTED_INDEX, skipPlansUnlessSuperuser, unitVector, withRebuiltVectorIndex } from './fixtures.ts';

const notices: string[] = [];
// Both whole-call bounds at 0: every call takes the index path (the split's own bound is apart).
const INDEX_PATH = 'set local brain.exact_search_max_rows = 0; set local brain.exact_search_max_filtered_rows = 0;';
const EXACT = 'set local brain.exact_search_max_rows = 1000000000;';
// #2's three passages are more than this bound: the restricted part takes its own index.
const LARGE_REST = `${INDEX_PATH} set local brain.restricted_exact_max_rows = 2;`;
const EVERYONE_SET = ['workspace', 'channel:1'];
const STAFF_ASK = ['workspace', 'channel:1', 'channel:2'];

describeDb('match_artifacts: keys that hold the everyone set', (suite) => {
  const query = unitVector(23);
  let ws = '';
  const artifact: Record<string, string> = {};

  // chunk ids in the function's order, match_count 5, no similarity floor.
  const ranked = (audiences: string[], settings: string, text: string | null = null): Promise<string[]> =>
    withWorkspace(suite.db, ws, async (tx) => {
      await tx.exec(settings);
      const rows = await tx.query<{ chunk_id: string }>(
        'select chunk_id from brain.match_artifacts($1::uuid, $2::vector, $3, 5, -1, $4::text[])',
        [ws, toVectorLiteral(query), text, audiences],
      );
      return rows.map((r) => r.chunk_id);
    });
  const sources = (audiences: string[], settings: string): Promise<string[]> =>
    withWorkspace(suite.db, ws, async (tx) => {
      await tx.exec(settings);
      const rows = await tx.query<{ artifact_id: string }>(
        'select artifact_id from brain.match_artifacts($1::uuid, $2::vector, null, 50, -1, $3::text[])',
        [ws, toVectorLiteral(query), audiences],
      );
      return [...new Set(rows.map((r) => Object.keys(artifact).find((k) => artifact[k] === r.artifact_id) ?? 'bulk'))].sort();
    });
  // The plans of the function's statements (auto_explain, which needs a superuser).
  const plans = (audiences: string[], settings = INDEX_PATH): Promise<string> =>
    plansOf(suite.db, notices, ws, async (tx) => {
      await tx.exec(settings);
      await tx.query('select artifact_id from brain.match_artifacts($1::uuid, $2::vector, null, 5, -1, $3::text[])', [ws, toVectorLiteral(query), audiences]);
    });
  // How the flagged part's scans treat their candidates: every flagged one, or checked by keys.
  const flaggedPart = (plan: string): string => {
    const kinds = new Set(flaggedScanKinds(plan));
    expect(kinds.size, plan).toBe(1);
    return [...kinds][0] as string;
  };
  const split = (plan: string): void => {
    expect(flaggedPart(plan)).toBe('all flagged');
    expect(indexScans(plan, RESTRICTED_INDEX)).toEqual([]);
  };
  const byKeys = (plan: string): void => {
    expect(flaggedPart(plan)).toBe('by keys');
  };
  const setFacts = (tx: Queryable, everyone: string[]) =>
    tx.query('update guild_facts set everyone_audiences = $2::text[], fetched_at = now() where workspace_id = $1', [ws, everyone]);
  // What the everyone_flags job records once it has checked every flag (packages/ingest): here the
  // flags are right by construction, set by trigger from the facts stored before the passages.
  const markFlagsCurrent = () =>
    withService(suite.db, (tx) => tx.query('update guild_facts set everyone_flags_follow = everyone_audiences where workspace_id = $1', [ws]));

  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'audience-split');
    await withWorkspace(suite.db, ws, (tx) =>
      tx.query(`insert into guild_facts (workspace_id, guild_id, owner_id, roles, channels, fetched_at, everyone_audiences)
                values ($1, '1', '2', '[]', '[]', now(), array['channel:1'])`, [ws]),
    );
    await withRebuiltVectorIndex(suite.db, async () => {
      // 150 workspace-wide passages far from the question: the flagged part holds more than a
      // leg's depth (60), so the index path stands and does not fall back to the exact one.
      await bulkLoadChunks(suite.db, ws, 150, 5);
      await withWorkspace(suite.db, ws, async (tx) => {
        const sourcesNear = [['notes', 'workspace', 2], ['general', 'channel:1', 2], ['staff', 'channel:2', 3], ['mods', 'channel:3', 2]] as const;
        for (const [name, audience, count] of sourcesNear) {
          artifact[name] = await createArtifact(tx, ws, name);
          await tx.query('update artifacts set audience = $2 where id = $1', [artifact[name], audience]);
          await insertChunks(
            tx,
            ws,
            artifact[name],
            Array.from({ length: count }, (_, i) => ({ content: `${name} passage ${i}`, embedding: nearVector(query, name.length * 10 + i, 0.3 + 0.1 * i) })),
          );
        }
      });
    });
    await markFlagsCurrent();
  }, 120_000);

  it('returns what the same keys return on the exact path, for the everyone set and a staff ask, vector only and hybrid', async () => {
    for (const audiences of [EVERYONE_SET, STAFF_ASK]) {
      for (const text of [null, 'staff passage']) {
        const exact = await ranked(audiences, EXACT, text);
        expect(exact).toHaveLength(5);
        expect(await ranked(audiences, INDEX_PATH, text), `${audiences.join(', ')}, ${text ?? 'vector only'}`).toEqual(exact);
      }
    }
    // Both parts contribute: the flagged sources and the staff channel's.
    expect(await sources(STAFF_ASK, INDEX_PATH)).toEqual(['bulk', 'general', 'notes', 'staff']);
    expect(await ranked(STAFF_ASK, LARGE_REST)).toEqual(await ranked(STAFF_ASK, EXACT));
  });

  it('takes every flagged passage only while the flags follow the facts and the keys hold the everyone set, and then never cites outside the keys', async (ctx) => {
    await skipPlansUnlessSuperuser(suite.db, ctx);
    split(await plans(EVERYONE_SET));
    split(await plans(STAFF_ASK));
    // More restricted passages than the bound: they take their own index, checked by keys.
    const large = await plans(STAFF_ASK, LARGE_REST);
    expect(flaggedPart(large)).toBe('all flagged');
    const restricted = indexScans(large, RESTRICTED_INDEX);
    expect(restricted.length).toBeGreaterThan(0);
    expect(restricted.every((scan) => /audience = ANY/.test(scan))).toBe(true);
    // Keys that lack part of the everyone set.
    byKeys(await plans(['workspace', 'channel:2']));
    byKeys(await plans(['channel:1', 'channel:2']));

    // #1 made staff-only and #3 everyone's; the rewrite has not run, so general's passages are
    // still flagged. Keys that hold the new everyone set go by keys, and never cite #1.
    await withWorkspace(suite.db, ws, (tx) => setFacts(tx, ['channel:3']));
    const newSet = ['workspace', 'channel:3'];
    byKeys(await plans(newSet));
    byKeys(await plans(STAFF_ASK));
    expect(await sources(newSet, INDEX_PATH)).toEqual(['bulk', 'mods', 'notes']);
    expect(await ranked(newSet, INDEX_PATH)).toEqual(await ranked(newSet, EXACT));
    expect(await ranked(newSet, LARGE_REST)).toEqual(await ranked(newSet, EXACT));

    // Without facts: by keys.
    await withService(suite.db, (tx) => tx.query('delete from guild_facts where workspace_id = $1', [ws]));
    byKeys(await plans(EVERYONE_SET));
  });
},
  { onNotice: (message) => notices.push(message) },
);
