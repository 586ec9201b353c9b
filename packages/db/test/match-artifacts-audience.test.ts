/**
 * The audience filter lives inside match_artifacts (issue 14): called directly, as the tenant,
 * the function returns only passages of the audiences it is given, on the exact path, the HNSW
 * path and the keyword leg, and an audience change reaches the passages at once. The reserved key
 * 'everyone' filters on the passages' readable_by_everyone flag while the flags follow the stored
 * guild facts exactly (guild_facts.everyone_flags_follow, settled by the everyone_flags job, which
 * settleFlags below stands in for), and by the stored everyone set's keys while they lag: storing
 * facts no longer rewrites the flags, and no call cites through a stale one.
 */
import { beforeAll, expect, it } from 'vitest';
import { actAsTenant, toVectorLiteral, withService, withWorkspace, type Queryable } from '../src/index.ts';
import { describeDb } from '../src/testing/index.ts';
import { bulkLoadChunks, createArtifact, createWorkspace, flaggedScanKinds, indexScans, insertChunks, nearVector, plansOf, RESTRICTED_INDEX, skipPlansUnlessSuperuser, unitVector, withRebuiltVectorIndex } from './fixtures.ts';

const notices: string[] = [];

describeDb('match_artifacts audiences', (suite) => {
  const query = unitVector(11);
  let ws = '';
  const artifact: Record<string, string> = {};

  async function call(tx: Queryable, audiences: string[] | null | 'omitted', settings = ''): Promise<string[]> {
    if (settings) await tx.exec(settings);
    const args = [ws, toVectorLiteral(query), 'audience probe'];
    const rows =
      audiences === 'omitted'
        ? await tx.query<{ artifact_id: string }>('select artifact_id from brain.match_artifacts($1::uuid, $2::vector, $3, 50, -1)', args)
        : await tx.query<{ artifact_id: string }>('select artifact_id from brain.match_artifacts($1::uuid, $2::vector, $3, 50, -1, $4::text[])', [...args, audiences]);
    return [...new Set(rows.map((r) => r.artifact_id))].sort();
  }
  const names = (ids: string[]) => ids.map((id) => Object.keys(artifact).find((k) => artifact[k] === id)).sort();
  // What the everyone_flags job does (packages/ingest, tested there), in one statement each: every
  // passage's flag rederived from the stored facts, then marked current.
  async function settleFlags(tx: Queryable): Promise<void> {
    // Only the passages whose flag changes: each write re-inserts a row into an HNSW index.
    await tx.query(
      `update chunks c set readable_by_everyone = not c.readable_by_everyone
        where c.workspace_id = $1 and c.readable_by_everyone is distinct from (c.audience = 'workspace' or (c.audience like 'channel:%'
          and c.audience = any(coalesce((select g.everyone_audiences from guild_facts g where g.workspace_id = $1), '{}'))))`,
      [ws],
    );
    // As the job does, as service_role: a tenant may not say the flags follow.
    await tx.exec('set local role service_role');
    await tx.query('update guild_facts set everyone_flags_follow = everyone_audiences where workspace_id = $1', [ws]);
    await actAsTenant(tx, ws);
  }
  const queuedRewrites = async (tx: Queryable) =>
    (await tx.query<{ n: number }>("select count(*)::int as n from jobs where workspace_id = $1 and task = 'everyone_flags' and status = 'queued'", [ws]))[0]?.n;

  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'audiences');
    await withRebuiltVectorIndex(suite.db, async () => {
      // 1,500 passages of a big channel: past the exact-path threshold, so its audience takes the index.
      await bulkLoadChunks(suite.db, ws, 1500, 3);
      await withWorkspace(suite.db, ws, async (tx) => {
        const [bulk] = await tx.query<{ id: string }>("select id from artifacts where title = 'Bulk'");
        artifact.big = (bulk as { id: string }).id;
        await tx.query("update artifacts set audience = 'channel:1' where id = $1", [artifact.big]);
        for (const [name, audience] of [['everyone', 'workspace'], ['staff', 'channel:2'], ['legacy', 'unknown'], ['mods', 'channel:3']] as const) {
          artifact[name] = await createArtifact(tx, ws, name);
          await tx.query('update artifacts set audience = $2 where id = $1', [artifact[name], audience]);
          await insertChunks(tx, ws, artifact[name], [
            { content: `${name} audience probe passage`, embedding: nearVector(query, name.length, 0.3) },
            { content: `${name} second audience probe passage`, embedding: nearVector(query, name.length + 50, 0.4) },
          ]);
        }
      });
    });
  }, 300_000);

  it('returns only the audiences it is given, on the exact path', async () => {
    await withWorkspace(suite.db, ws, async (tx) => {
      expect(names(await call(tx, ['workspace', 'channel:2']))).toEqual(['everyone', 'staff']);
      expect(names(await call(tx, ['channel:3']))).toEqual(['mods']);
      expect(await call(tx, [])).toEqual([]);
    });
  });

  it('defaults to workspace-wide sources only, and gives everything only for an explicit NULL', async () => {
    await withWorkspace(suite.db, ws, async (tx) => {
      expect(names(await call(tx, 'omitted'))).toEqual(['everyone']);
      expect(names(await call(tx, null))).toEqual(['big', 'everyone', 'legacy', 'mods', 'staff']);
    });
  });

  it('filters inside the HNSW path and the keyword leg too', async () => {
    await withWorkspace(suite.db, ws, async (tx) => {
      // Every passage counts as "large": the index path, with the audience predicate in the scan.
      const forced = 'set local brain.exact_search_max_rows = 0; set local brain.exact_search_max_filtered_rows = 0';
      expect(names(await call(tx, ['channel:2'], forced))).toEqual(['staff']);
      const big = await call(tx, ['channel:1'], forced);
      expect(names(big)).toEqual(['big']);
      // Keyword leg alone: no embedding.
      const keyword = await tx.query<{ artifact_id: string }>(
        "select artifact_id from brain.match_artifacts($1::uuid, null, 'second audience probe', 50, -1, array['channel:3'])",
        [ws],
      );
      expect(names([...new Set(keyword.map((r) => r.artifact_id))])).toEqual(['mods']);
    });
  });

  it('moves the passages with their source when its audience changes', async () => {
    await withWorkspace(suite.db, ws, async (tx) => {
      await tx.query("update artifacts set audience = 'channel:3' where id = $1", [artifact.staff]);
      expect(names(await call(tx, ['channel:2']))).toEqual([]);
      expect(names(await call(tx, ['channel:3']))).toEqual(['mods', 'staff']);
      const [mismatch] = await tx.query<{ n: number }>('select count(*)::int as n from chunks c join artifacts a on a.id = c.artifact_id where c.audience <> a.audience');
      expect(mismatch?.n).toBe(0);
      // A passage cannot be written with another audience than its source's.
      await tx.query("update chunks set audience = 'workspace' where artifact_id = $1", [artifact.staff]);
      const [still] = await tx.query<{ audience: string }>('select distinct audience from chunks where artifact_id = $1', [artifact.staff]);
      expect(still?.audience).toBe('channel:3');
    });
  });

  it('searches the flagged passages through their own partial index, by keys only while the flags lag, and the rest apart', async (ctx) => {
    await skipPlansUnlessSuperuser(suite.db, ctx);
    // #3 (mods', and staff's since the move above) made everyone-readable, and both bounds at 0: every call takes the index path.
    const forced = 'set local brain.exact_search_max_rows = 0; set local brain.exact_search_max_filtered_rows = 0;';
    const plans = (audiences: string[] | null, settings = ''): Promise<string> =>
      plansOf(suite.db, notices, ws, async (tx) => {
        await tx.exec(forced + settings);
        await tx.query('select artifact_id from brain.match_artifacts($1::uuid, $2::vector, null, 50, -1, $3::text[])', [ws, toVectorLiteral(query), audiences]);
      });
    await withWorkspace(suite.db, ws, (tx) =>
      tx.query(`insert into guild_facts (workspace_id, guild_id, owner_id, roles, channels, fetched_at, everyone_audiences)
                values ($1, '1', '2', '[]', '[]', now(), array['channel:3'])`, [ws]),
    );
    // Flags that lag the facts: 'everyone' is searched by the stored set's keys, in both parts; the
    // restricted part (#1's 1,500 passages and the rest) is searched exactly below its bound, and
    // through its own index above it.
    const lagging = await plans(['everyone']);
    expect(new Set(flaggedScanKinds(lagging))).toEqual(new Set(['by keys']));
    expect(indexScans(lagging, RESTRICTED_INDEX)).toEqual([]);
    const laggingLarge = await plans(['everyone'], 'set local brain.restricted_exact_max_rows = 0;');
    expect(indexScans(laggingLarge, RESTRICTED_INDEX).length).toBeGreaterThan(0);
    expect(indexScans(laggingLarge, RESTRICTED_INDEX).every((scan) => /audience = ANY/.test(scan))).toBe(true);
    await withWorkspace(suite.db, ws, settleFlags);
    // Current flags: 'everyone' is the flagged part alone, unfiltered by keys.
    const everyone = await plans(['everyone'], 'set local brain.restricted_exact_max_rows = 0;');
    expect(new Set(flaggedScanKinds(everyone))).toEqual(new Set(['all flagged']));
    expect(indexScans(everyone, RESTRICTED_INDEX)).toEqual([]);
    // Everything: both parts, neither by keys.
    const everything = await plans(null, 'set local brain.restricted_exact_max_rows = 0;');
    expect(new Set(flaggedScanKinds(everything))).toEqual(new Set(['all flagged']));
    expect(indexScans(everything, RESTRICTED_INDEX).length).toBeGreaterThan(0);
    expect(indexScans(everything, RESTRICTED_INDEX).some((scan) => /audience/.test(scan))).toBe(false);
    // The same set by its keys, while the flags are current, takes every flagged passage too
    // (match-artifacts-audience-split.test.ts); keys that lack part of it check them.
    expect(new Set(flaggedScanKinds(await plans(['workspace', 'channel:3'])))).toEqual(new Set(['all flagged']));
    expect(new Set(flaggedScanKinds(await plans(['channel:3', 'channel:1'])))).toEqual(new Set(['by keys']));
    await withWorkspace(suite.db, ws, async (tx) => {
      expect(names(await call(tx, ['everyone'], forced))).toEqual(['everyone', 'mods', 'staff']);
      await tx.query('delete from guild_facts where workspace_id = $1', [ws]);
    });
  });

  it('flags what every member may read, and the reserved key everyone returns exactly that, on both paths, never through a flag that lags the facts', async () => {
    await withWorkspace(suite.db, ws, async (tx) => {
      const flagged = async () =>
        names((await tx.query<{ artifact_id: string }>('select distinct artifact_id from chunks where readable_by_everyone')).map((r) => r.artifact_id));
      const follows = async () =>
        (await tx.query<{ follow: string[] | null }>('select everyone_flags_follow as follow from guild_facts where workspace_id = $1', [ws]))[0]?.follow;
      const forced = 'set local brain.exact_search_max_rows = 0; set local brain.exact_search_max_filtered_rows = 0';
      const everyone = async () => {
        const exact = names(await call(tx, ['everyone']));
        expect(names(await call(tx, ['everyone'], forced)), 'the index path agrees with the exact one').toEqual(exact);
        await tx.exec('reset brain.exact_search_max_rows; reset brain.exact_search_max_filtered_rows');
        return exact;
      };
      // No guild facts: only workspace-wide sources are everyone's (the last case's deleted facts
      // may have left #3's passages flagged: without facts no flag is trusted).
      expect(await everyone()).toEqual(['everyone']);
      // Facts that say #3 is readable by everyone. Storing them rewrites no passage (mods', and
      // staff's since the move above, stay unflagged) and queues the rewrite; meanwhile 'everyone'
      // answers by the stored set's keys, which already include #3.
      await tx.query("update chunks set readable_by_everyone = false where workspace_id = $1 and readable_by_everyone and audience <> 'workspace'", [ws]);
      expect(await flagged()).toEqual(['everyone']);
      await tx.query(
        `insert into guild_facts (workspace_id, guild_id, owner_id, roles, channels, fetched_at, everyone_audiences)
         values ($1, '1', '2', '[]', '[]', now(), array['channel:3'])`,
        [ws],
      );
      expect(await flagged()).toEqual(['everyone']);
      expect(await follows()).toBeNull();
      expect(await queuedRewrites(tx)).toBe(1);
      expect(await everyone()).toEqual(['everyone', 'mods', 'staff']);
      // The rewrite settles: the flags now say the same, and follow the facts.
      await settleFlags(tx);
      expect(await follows()).toEqual(['channel:3']);
      expect(await flagged()).toEqual(['everyone', 'mods', 'staff']);
      expect(await everyone()).toEqual(['everyone', 'mods', 'staff']);
      // A source moved out of an everyone-readable channel is unflagged at once; moved back, flagged.
      await tx.query("update artifacts set audience = 'channel:2' where id = $1", [artifact.staff]);
      expect(await everyone()).toEqual(['everyone', 'mods']);
      await tx.query("update artifacts set audience = 'channel:3' where id = $1", [artifact.staff]);
      expect(await everyone()).toEqual(['everyone', 'mods', 'staff']);
      // The same set stored again (another refresh, its keys in another order) keeps the flags current.
      await tx.query("update guild_facts set everyone_audiences = array['channel:3', 'channel:3'], fetched_at = now() where workspace_id = $1", [ws]);
      expect(await follows()).toEqual(['channel:3']);
      // The channel becomes staff-only. The flags still say #3 (nothing rewrote them), yet no call cites it.
      await tx.query("update guild_facts set everyone_audiences = '{}', fetched_at = now() where workspace_id = $1", [ws]);
      expect(await flagged()).toEqual(['everyone', 'mods', 'staff']);
      expect(await follows()).toBeNull();
      expect(await everyone()).toEqual(['everyone']);
      // Made public again before any rewrite ran: the flags happen to agree, but only a rewrite's
      // check may say so (a passage written meanwhile took the other facts' flag).
      await tx.query("update guild_facts set everyone_audiences = array['channel:3'], fetched_at = now() where workspace_id = $1", [ws]);
      expect(await follows()).toBeNull();
      await tx.query("update guild_facts set everyone_audiences = '{}', fetched_at = now() where workspace_id = $1", [ws]);
      await settleFlags(tx);
      expect(await flagged()).toEqual(['everyone']);
      expect(await everyone()).toEqual(['everyone']);
      // A flag cannot be set by hand: it is always derived.
      await tx.query('update chunks set readable_by_everyone = true where artifact_id = $1', [artifact.staff]);
      expect(await flagged()).toEqual(['everyone']);
      // 'everyone' is reserved only alone; among other keys it names no audience.
      expect(names(await call(tx, ['everyone', 'channel:3']))).toEqual(['mods', 'staff']);
      // 'unknown' is never everyone's, whatever the facts say, by the flag or by the keys.
      await tx.query("update guild_facts set everyone_audiences = array['channel:3', 'unknown'] where workspace_id = $1", [ws]);
      expect(await everyone()).toEqual(['everyone', 'mods', 'staff']);
      await settleFlags(tx);
      expect(await flagged()).toEqual(['everyone', 'mods', 'staff']);
      expect(await everyone()).toEqual(['everyone', 'mods', 'staff']);
      // Facts gone (the workspace's facts deleted): workspace-wide only again, whatever the flags say.
      await tx.query('delete from guild_facts where workspace_id = $1', [ws]);
      expect(await everyone()).toEqual(['everyone']);
    });
  });

  it('lets only the rewrite job, as service_role, say the flags follow the facts', async () => {
    await withWorkspace(suite.db, ws, (tx) =>
      tx.query(`insert into guild_facts (workspace_id, guild_id, owner_id, roles, channels, fetched_at, everyone_audiences)
                values ($1, '1', '2', '[]', '[]', now(), array['channel:3'])`, [ws]),
    );
    const mark = (tx: Queryable) => tx.query('update guild_facts set everyone_flags_follow = everyone_audiences where workspace_id = $1 returning 1', [ws]);
    await expect(withWorkspace(suite.db, ws, mark)).rejects.toThrow(/only by the everyone_flags job/);
    expect(await withService(suite.db, mark)).toHaveLength(1);
    await withService(suite.db, (tx) => tx.query('delete from guild_facts where workspace_id = $1', [ws]));
  });
},
  { onNotice: (message) => notices.push(message) },
);
