import { beforeAll, describe, expect, it } from 'vitest';
import { audienceKeys, EVERYTHING, matchArtifacts, toVectorLiteral, withService, withWorkspace, type Database, type Queryable } from '../src/index.ts';
import { describeDb } from '../src/testing/index.ts';
import {
  atSimilarity,
  bulkLoadChunks,
  cosine,
  createArtifact,
  createWorkspace,
  insertChunks,
  nearVector,
  plansOf as plansWith,
  skipPlansUnlessSuperuser,
  unitVector,
  withRebuiltVectorIndex,
} from './fixtures.ts';

const notices: string[] = [];
const plansOf = (db: Database, workspaceId: string, fn: (tx: Queryable) => Promise<unknown>, extraSettings = ''): Promise<string> =>
  plansWith(db, notices, workspaceId, fn, extraSettings);

describeDb(
  'match_artifacts',
  (suite) => {
    const query = unitVector(1);
    let big = '';
    let small = '';
    let smallChunks: { id: string; embedding: number[] | null; content: string }[] = [];
    let afterBuild = { indexed: -1, embedded: -2, all_rows: -3 };

    beforeAll(async () => {
      big = await createWorkspace(suite.db, 'big');
      small = await createWorkspace(suite.db, 'small');

      const specs = [
        ...Array.from({ length: 10 }, (_, i) => ({
          content: `embedded passage ${i} about retention policies`,
          // Distinct distances from the query: passage 0 is nearest, 9 farthest.
          embedding: nearVector(query, 100 + i, 0.2 + i * 0.25),
        })),
        { content: 'pending passage about retention policies, not embedded yet', embedding: null },
        { content: 'another pending passage', embedding: null },
      ];
      await withRebuiltVectorIndex(suite.db, async () => {
        await bulkLoadChunks(suite.db, big, 10_000, 7);
        // In a channel no guild facts call everyone-readable: the everyone-readable partial index
        // stays small here, and is not rebuilt over 10,000 passages (match-artifacts-audience.test.ts covers it).
        await withWorkspace(suite.db, big, (tx) => tx.query("update artifacts set audience = 'channel:9' where title = 'Bulk'"));
        await withWorkspace(suite.db, small, async (tx) => {
          const artifact = await createArtifact(tx, small, 'Small source');
          const ids = await insertChunks(tx, small, artifact, specs);
          smallChunks = ids.map((id, i) => ({ id, ...(specs[i] as (typeof specs)[number]) }));
        });
      });
      // Building an index records how many tuples went into it; the two split the passages between them.
      const [counts] = await suite.db.query<typeof afterBuild>(`
        select (select sum(reltuples)::int from pg_class
                 where oid in ('public.chunks_embedding_restricted_hnsw_idx'::regclass, 'public.chunks_embedding_everyone_hnsw_idx'::regclass)) as indexed,
               (select count(*)::int from chunks where embedding is not null) as embedded,
               (select count(*)::int from chunks) as all_rows`);
      afterBuild = counts as typeof afterBuild;
    }, 300_000); // building a 10,000-passage HNSW index (ef_construction 128) in WASM takes over a minute on a busy machine

    it('gives a 10-passage workspace its exact top 5 among 10,000 passages of another workspace', async () => {
      const expected = smallChunks
        .filter((c) => c.embedding)
        .map((c) => ({ id: c.id, sim: cosine(query, c.embedding as number[]) }))
        .sort((a, b) => b.sim - a.sim)
        .slice(0, 5);

      const hits = await withWorkspace(suite.db, small, (tx) =>
        matchArtifacts(tx, { audience: EVERYTHING, workspaceId: small, embedding: query, matchCount: 5, minSimilarity: -1 }),
      );

      expect(hits.map((h) => h.chunkId)).toEqual(expected.map((e) => e.id));
      for (const [i, hit] of hits.entries()) {
        expect(hit.similarity).toBeCloseTo(expected[i]?.sim as number, 5);
        expect(hit.matchedBy).toEqual(['vector']);
        expect(hit.vectorRank).toBe(i + 1);
      }
    });

    it('searches a small workspace exactly and a large one through the HNSW index', async (ctx) => {
      await skipPlansUnlessSuperuser(suite.db, ctx);
      const smallPlans = await plansOf(suite.db, small, (tx) =>
        matchArtifacts(tx, { audience: EVERYTHING, workspaceId: small, embedding: query, minSimilarity: -1 }),
      );
      expect(smallPlans).toMatch(/chunks_workspace_id_idx/);
      expect(smallPlans).not.toMatch(/chunks_embedding_restricted_hnsw_idx/);

      const bigPlans = await plansOf(suite.db, big, (tx) =>
        matchArtifacts(tx, { audience: EVERYTHING, workspaceId: big, embedding: query, minSimilarity: -1 }),
      );
      expect(bigPlans).toMatch(/Index Scan using chunks_embedding_restricted_hnsw_idx/);

      // The size threshold is what decides: raised above the large workspace's size, it goes exact too.
      const forcedExact = await plansOf(
        suite.db,
        big,
        (tx) => matchArtifacts(tx, { audience: EVERYTHING, workspaceId: big, embedding: query, minSimilarity: -1 }),
        'set local brain.exact_search_max_rows = 20000;',
      );
      expect(forcedExact).not.toMatch(/chunks_embedding_restricted_hnsw_idx/);
    });

    it('searches a filtered call exactly up to its own, larger bound, and leaves unfiltered calls to theirs', async (ctx) => {
      await skipPlansUnlessSuperuser(suite.db, ctx);
      const everyoneReads = audienceKeys(['channel:9']);
      // The large workspace's 10,000 passages are all in that channel: past the filtered bound (3,000) too.
      const filtered = await plansOf(suite.db, big, (tx) => matchArtifacts(tx, { audience: everyoneReads, workspaceId: big, embedding: query, minSimilarity: -1 }));
      expect(filtered).toMatch(/Index Scan using chunks_embedding_restricted_hnsw_idx/);
      const bound = 'set local brain.exact_search_max_filtered_rows = 20000;';
      const filteredUnderBound = await plansOf(suite.db, big, (tx) => matchArtifacts(tx, { audience: everyoneReads, workspaceId: big, embedding: query, minSimilarity: -1 }), bound);
      expect(filteredUnderBound).not.toMatch(/chunks_embedding_restricted_hnsw_idx/);
      const unfiltered = await plansOf(suite.db, big, (tx) => matchArtifacts(tx, { audience: EVERYTHING, workspaceId: big, embedding: query, minSimilarity: -1 }), bound);
      expect(unfiltered).toMatch(/Index Scan using chunks_embedding_restricted_hnsw_idx/);
    });

    it('reads just the leg’s depth of candidates on the filtered index path, as the unfiltered path does', async (ctx) => {
      await skipPlansUnlessSuperuser(suite.db, ctx);
      // The nearest Limit above each HNSW scan, with the rows it let through: the candidates the leg read.
      const depthRead = (plans: string) => {
        const lines = plans.split('\n');
        return lines.flatMap((line, i) => {
          if (!line.includes('Index Scan using chunks_embedding_restricted_hnsw_idx')) return [];
          const limit = lines.slice(0, i).reverse().find((l) => /\bLimit\b/.test(l)) ?? '';
          return [Number(/actual [^)]*rows=([\d.]+)/.exec(limit)?.[1])];
        });
      };
      const analyze = 'set local auto_explain.log_analyze = on;';
      const call = (audience: Parameters<typeof matchArtifacts>[1]['audience']) => (tx: Queryable) => matchArtifacts(tx, { audience, workspaceId: big, embedding: query, minSimilarity: -1 });
      // match_count 5: 60 candidates per leg. The filtered call once read 1.5 × (90).
      expect(depthRead(await plansOf(suite.db, big, call(EVERYTHING), analyze))).toEqual([60]);
      expect(depthRead(await plansOf(suite.db, big, call(audienceKeys(['channel:9'])), analyze))).toEqual([60]);
    });

    it('returns a full result for the large workspace through the filtered index', async () => {
      const hits = await withWorkspace(suite.db, big, (tx) =>
        matchArtifacts(tx, { audience: EVERYTHING, workspaceId: big, embedding: query, matchCount: 10, minSimilarity: -1 }),
      );
      expect(hits).toHaveLength(10);
      const sims = hits.map((h) => h.similarity as number);
      expect([...sims].sort((a, b) => b - a)).toEqual(sims);
    });

    it('never returns a passage whose embedding is still NULL, and such rows stay out of the HNSW indexes', async () => {
      const pendingIds = smallChunks.filter((c) => c.embedding === null).map((c) => c.id);
      const hits = await withWorkspace(suite.db, small, (tx) =>
        matchArtifacts(tx, { audience: EVERYTHING, workspaceId: small, embedding: query, queryText: 'pending retention', matchCount: 20, minSimilarity: -1 }),
      );
      expect(hits.length).toBe(10);
      expect(hits.map((h) => h.chunkId)).not.toEqual(expect.arrayContaining([pendingIds[0]]));

      expect(afterBuild.all_rows).toBe(10_012);
      expect(afterBuild.embedded).toBe(10_010);
      expect(afterBuild.indexed).toBe(afterBuild.embedded);
    });

    it('fuses the keyword and vector legs and says which found each passage', async () => {
      const keywordOnly = 'zephyrine quartermaster ledger';
      const target = nearVector(query, 900, 8); // far from the query: the vector leg ranks it low
      await withWorkspace(suite.db, small, async (tx) => {
        const artifact = await createArtifact(tx, small, 'Ledger');
        await insertChunks(tx, small, artifact, [{ content: `The ${keywordOnly} is kept in room 4.`, embedding: target }]);
      });
      const hits = await withWorkspace(suite.db, small, (tx) =>
        matchArtifacts(tx, { audience: EVERYTHING, workspaceId: small, embedding: query, queryText: 'where is the zephyrine quartermaster ledger?', matchCount: 5, minSimilarity: -1 }),
      );
      const ledger = hits.find((h) => h.content.includes(keywordOnly));
      expect(ledger?.matchedBy).toEqual(['vector', 'keyword']);
      expect(ledger?.keywordRank).toBe(1);
      expect(ledger?.title).toBe('Ledger');
      expect(hits[0]?.chunkId).toBe(ledger?.chunkId);
      expect(hits.filter((h) => h !== ledger).every((h) => h.matchedBy.join() === 'vector')).toBe(true);

      const keywordHits = await withWorkspace(suite.db, small, (tx) =>
        matchArtifacts(tx, { audience: EVERYTHING, workspaceId: small, queryText: 'zephyrine', matchCount: 5 }),
      );
      expect(keywordHits.map((h) => h.chunkId)).toEqual([ledger?.chunkId]);
      expect(keywordHits[0]?.matchedBy).toEqual(['keyword']);
      expect(keywordHits[0]?.similarity).toBeNull();
    });

    it('keeps the keyword leg’s own top passages in hybrid although their embedding is below the floor', async () => {
      // Keyword mode returns them whatever their embedding: hybrid must not lose what one leg alone finds.
      const ws = await createWorkspace(suite.db, 'floor');
      const far = unitVector(901);
      const unrelatedFar = unitVector(902);
      expect(cosine(far, query)).toBeLessThan(0.15);
      expect(cosine(unrelatedFar, query)).toBeLessThan(0.15);
      await withWorkspace(suite.db, ws, async (tx) => {
        const artifact = await createArtifact(tx, ws, 'Codes');
        await insertChunks(tx, ws, artifact, [
          { content: 'Error QX_FLUX_7 means the flux capacitor is unplugged.', embedding: far },
          { content: 'Nothing here shares a word with the question.', embedding: unrelatedFar },
          { content: 'A passage close to the question in meaning.', embedding: nearVector(query, 903, 0.3) },
        ]);
      });
      const hits = await withWorkspace(suite.db, ws, (tx) =>
        matchArtifacts(tx, { audience: EVERYTHING, workspaceId: ws, embedding: query, queryText: 'what does QX_FLUX_7 mean?', matchCount: 5, minSimilarity: 0.15 }),
      );
      expect(hits.map((h) => h.content)).toContain('Error QX_FLUX_7 means the flux capacitor is unplugged.');
      expect(hits.find((h) => h.content.startsWith('Error'))?.matchedBy).toEqual(['vector', 'keyword']);
      // Still below the floor and not a keyword match: dropped, as before.
      expect(hits.map((h) => h.content)).not.toContain('Nothing here shares a word with the question.');
    });

    it('lets the keyword leg decide when the vector leg is flat, and only then', async () => {
      // Five passages the embedding ranks almost alike (0.600–0.592), each sharing one word of
      // the question; ten more below them; and the one that holds every word, 16th by vector.
      // RRF adds 1/61 + 1/62 for a passage both legs rank in the middle against 1/61 + 1/76 for
      // it, so it came 6th; with the keyword leg counting 5 times, it comes ahead of the middle.
      const question = 'When does the release train leave?';
      const fact = 'The release train leaves on Thursdays at 15:00 UTC from the main branch.';
      const layout = async (slug: string, firstSimilarity: number) => {
        const ws = await createWorkspace(suite.db, slug);
        const specs = [
          // Each one a word longer than the one before: the keyword leg ranks them in the vector
          // leg's order (ts_rank's length normalisation), not by their random ids.
          ...[firstSimilarity, 0.598, 0.596, 0.594, 0.592].map((s, i) => ({
            content: `Release notes, part ${i}: the wiki page lists every change${['', ' today', ' today tomorrow', ' today tomorrow yesterday', ' today tomorrow yesterday weekly'][i]}.`,
            embedding: atSimilarity(query, 1200 + i, s),
          })),
          ...Array.from({ length: 10 }, (_, i) => ({ content: `Lunch plans for day ${i}: the team meets at noon.`, embedding: atSimilarity(query, 1300 + i, 0.55 - i * 0.01) })),
          { content: fact, embedding: atSimilarity(query, 1400, 0.4) },
        ];
        await withWorkspace(suite.db, ws, async (tx) => {
          for (const spec of specs) await insertChunks(tx, ws, await createArtifact(tx, ws), [spec]);
        });
        return withWorkspace(suite.db, ws, (tx) =>
          matchArtifacts(tx, { audience: EVERYTHING, workspaceId: ws, embedding: query, queryText: question, matchCount: 5, minSimilarity: 0.15 }),
        );
      };

      const flat = await layout('flat-vector', 0.6);
      const found = flat.find((h) => h.content === fact);
      expect(found?.keywordRank).toBe(1);
      expect(found?.vectorRank).toBe(16);
      expect(flat.indexOf(found as (typeof flat)[number])).toBeLessThan(3);

      // The same passages with a first one the embedding singles out (0.700): RRF as before.
      const peaked = await layout('peaked-vector', 0.7);
      expect(peaked.map((h) => h.content)).not.toContain(fact);
      expect(peaked[0]?.vectorRank).toBe(1);
    });

    it('drops passages below min_similarity and answers nothing rather than something weak', async () => {
      const strict = await withWorkspace(suite.db, small, (tx) =>
        matchArtifacts(tx, { audience: EVERYTHING, workspaceId: small, embedding: query, matchCount: 5, minSimilarity: 0.99 }),
      );
      expect(strict).toEqual([]);
      const unrelated = await withWorkspace(suite.db, small, (tx) =>
        matchArtifacts(tx, { audience: EVERYTHING, workspaceId: small, embedding: unitVector(424242), matchCount: 5, minSimilarity: 0.15 }),
      );
      expect(unrelated).toEqual([]);
    });

    it('ignores passages that are not live (forgotten, or a version not yet swapped in)', async () => {
      const [top] = await withWorkspace(suite.db, small, (tx) =>
        matchArtifacts(tx, { audience: EVERYTHING, workspaceId: small, embedding: query, matchCount: 1, minSimilarity: -1 }),
      );
      await withService(suite.db, (tx) => tx.query('update chunks set is_live = false where id = $1', [top?.chunkId]));
      const [next] = await withWorkspace(suite.db, small, (tx) =>
        matchArtifacts(tx, { audience: EVERYTHING, workspaceId: small, embedding: query, matchCount: 1, minSimilarity: -1 }),
      );
      expect(next?.chunkId).not.toBe(top?.chunkId);
      await withService(suite.db, (tx) => tx.query('update chunks set is_live = true where id = $1', [top?.chunkId]));
    });

    describe('when the index scan runs out of budget', () => {
      // The smallest possible budget: the iterative scan stops after its first ef_search (100)
      // candidates. The small workspace takes the index path once the thresholds are below its
      // size: the whole call's, and its restricted part's (the related passages below share the
      // large workspace's channel, and so its graph).
      const indexPath = 'set local brain.exact_search_max_rows = 5; set local brain.restricted_exact_max_rows = 5;';
      const shortScan = `${indexPath} set local hnsw.max_scan_tuples = 1;`;
      let anchor: number[] = [];
      let nearIds: string[] = [];
      let expected: string[] = [];

      // What the index path alone finds for the question under the smallest budget.
      const indexOnlySql = `select id from chunks where workspace_id = $1 and embedding is not null and not readable_by_everyone and is_live
           order by embedding <=> $2::vector limit 40`;
      const indexOnlySettings = `${shortScan} set local enable_sort = off; set local hnsw.iterative_scan = relaxed_order; set local hnsw.ef_search = 100;`;
      const shortIndexScan = () =>
        withWorkspace(suite.db, small, async (tx) => {
          await tx.exec(indexOnlySettings);
          return tx.query<{ id: string }>(indexOnlySql, [small, toVectorLiteral(anchor)]);
        });

      beforeAll(async () => {
        // Passages of the large workspace from different clusters (its ordinals cycle through 50
        // cluster centres): the question sits in cluster A (ordinal 0); the small workspace's
        // related passages sit in another cluster B, still similar enough to the question to
        // count, but linked into B's part of the graph, which a scan that stops early never reaches.
        const rows = await suite.db.query<{ v: string }>(
          'select embedding::text as v from chunks where workspace_id = $1 and ordinal between 0 and 8 order by ordinal',
          [big],
        );
        const unit = (v: number[]): number[] => {
          const norm = Math.hypot(...v);
          return v.map((x) => x / norm);
        };
        const [a, ...others] = rows.map((r) => unit(JSON.parse(r.v) as number[])) as [number[], ...number[][]];
        anchor = a; // unit length, so cosine() is a dot product
        // The HNSW graph is built at random: now and then an insert (or a vacuum's repair of the
        // graph) links a related passage to a node the short scan visits, and the scan, which still
        // yields every candidate it looked at once its budget is spent, finds it. The tests below
        // are about the function given a graph that does not, so the passages go to the next
        // cluster until the scan misses them all (the first test restates this premise). Vacuumed
        // first: the dead tuples earlier tests left are gone and the graph repaired now, and too
        // few rows change after this for autovacuum to repair it again between here and the tests.
        await suite.db.query('vacuum chunks');
        for (const b of others) {
          const inClusterB = unit(a.map((x, i) => 0.35 * x + 0.94 * (b[i] as number)));
          const specs = [
            { content: 'close to the question', embedding: nearVector(anchor, 7001, 0.1) },
            ...Array.from({ length: 6 }, (_, i) => ({ content: `related, elsewhere ${i}`, embedding: nearVector(inClusterB, 7100 + i, 0.05) })),
          ];
          const placed = await withWorkspace(suite.db, small, async (tx) => {
            const artifact = await createArtifact(tx, small, 'Related to the large workspace');
            await tx.query("update artifacts set audience = 'channel:9' where id = $1", [artifact]);
            return { artifact, ids: await insertChunks(tx, small, artifact, specs) };
          });
          const found = new Set((await shortIndexScan()).map((r) => r.id));
          if (!placed.ids.slice(1).some((id) => found.has(id))) {
            nearIds = placed.ids;
            break;
          }
          await withService(suite.db, (tx) => tx.query('delete from artifacts where id = $1', [placed.artifact]));
        }
        if (nearIds.length === 0) throw new Error(`the short scan reached the related passages in each of ${others.length} clusters`);
        const all = await withService(suite.db, (tx) =>
          tx.query<{ id: string; v: string }>('select id, embedding::text as v from chunks where workspace_id = $1 and is_live', [small]),
        );
        expected = all
          .map((c) => ({ id: c.id, sim: cosine(anchor, JSON.parse(c.v) as number[]) }))
          .filter((c) => c.sim >= 0.15)
          .sort((a, b) => b.sim - a.sim)
          .slice(0, 5)
          .map((c) => c.id);
      });

      it('searches exactly when the short list it found is relevant', async (ctx) => {
        // The premise: under this budget the index path alone finds fewer than five (the setup
        // placed the related passages where it does). Should it not hold, the message carries the
        // plan and what was found, for the team.
        const indexOnly = await shortIndexScan();
        if (indexOnly.length >= 5) {
          const plan = await withWorkspace(suite.db, small, async (tx) => {
            await tx.exec(indexOnlySettings);
            return tx.query<Record<string, string>>(`explain (analyze, costs off, timing off) ${indexOnlySql}`, [small, toVectorLiteral(anchor)]);
          });
          const found = indexOnly.map((r) => (r.id === nearIds[0] ? 'the near passage' : nearIds.includes(r.id) ? 'a related passage' : 'another passage'));
          expect.fail(`premise: the index path alone found ${indexOnly.length} (${found.join(', ')}), expected fewer than 5\n${plan.map((r) => String(Object.values(r)[0]).replace(/'\[[^\]]*\]'::vector/g, "'[…]'::vector")).join('\n')}`);
        }
        expect(indexOnly.map((r) => r.id)).toContain(nearIds[0]);
        expect(expected).toHaveLength(5);

        const hits = await suite.db.transaction(async (tx) => {
          await tx.exec(`${shortScan} set local role brain_tenant;`);
          await tx.query("select set_config('app.workspace_id', $1, true)", [small]);
          return matchArtifacts(tx, { audience: EVERYTHING, workspaceId: small, embedding: anchor, matchCount: 5 });
        });
        expect(hits.map((h) => h.chunkId)).toEqual(expected);

        await skipPlansUnlessSuperuser(suite.db, ctx);
        const plans = await plansOf(suite.db, small, (tx) => matchArtifacts(tx, { audience: EVERYTHING, workspaceId: small, embedding: anchor }), shortScan);
        expect(plans).toMatch(/Index Scan using chunks_embedding_restricted_hnsw_idx/);
        expect(plans).toMatch(/\+ '0'::double precision/);
      });

      it('keeps the short list, without reading the whole workspace, when nothing it found is relevant', async (ctx) => {
        const offTopic = unitVector(515151);
        const hits = await suite.db.transaction(async (tx) => {
          await tx.exec(`${shortScan} set local role brain_tenant;`);
          await tx.query("select set_config('app.workspace_id', $1, true)", [small]);
          return matchArtifacts(tx, { audience: EVERYTHING, workspaceId: small, embedding: offTopic });
        });
        expect(hits).toEqual([]);
        await skipPlansUnlessSuperuser(suite.db, ctx);
        const plans = await plansOf(
          suite.db,
          small,
          async (tx) => expect(await matchArtifacts(tx, { audience: EVERYTHING, workspaceId: small, embedding: offTopic })).toEqual([]),
          shortScan,
        );
        expect(plans).toMatch(/Index Scan using chunks_embedding_restricted_hnsw_idx/);
        expect(plans).not.toMatch(/\+ '0'::double precision/);
      });
      it('takes a question for off-topic when its probe meets nothing relevant, and walks on when the probe is larger', async () => {
        // Without the passage next to the question, the small workspace's related passages are all
        // in cluster B. A probe of the smallest budget stays in cluster A, meets nothing of this
        // workspace that is relevant, and ends the vector leg; a probe as large as the table
        // reaches B, finds them relevant, and the short list goes on to the exact path.
        const offTopicProbe = `${indexPath} set local brain.hnsw_probe_max_tuples = 1;`;
        const wholeTableProbe = `${indexPath} set local brain.hnsw_probe_max_tuples = 20000;`;
        const ask = (settings: string) =>
          suite.db.transaction(async (tx) => {
            await tx.exec(`${settings} set local role brain_tenant;`);
            await tx.query("select set_config('app.workspace_id', $1, true)", [small]);
            return matchArtifacts(tx, { audience: EVERYTHING, workspaceId: small, embedding: anchor, matchCount: 5 });
          });
        await withService(suite.db, (tx) => tx.query('update chunks set is_live = false where id = $1', [nearIds[0]]));
        try {
          expect(await ask(offTopicProbe)).toEqual([]);
          const walked = await ask(wholeTableProbe);
          expect(walked).toHaveLength(5);
          for (const hit of walked) expect(nearIds.slice(1)).toContain(hit.chunkId);
          // The probe's budget is the session's for the rest of the transaction only while the
          // function runs: the caller's hnsw.max_scan_tuples is as it was afterwards.
          const after = await suite.db.transaction(async (tx) => {
            await tx.exec(`${offTopicProbe} set local hnsw.max_scan_tuples = 777; set local role brain_tenant;`);
            await tx.query("select set_config('app.workspace_id', $1, true)", [small]);
            await matchArtifacts(tx, { audience: EVERYTHING, workspaceId: small, embedding: anchor, matchCount: 5 });
            return tx.query<{ v: string }>("select current_setting('hnsw.max_scan_tuples') as v");
          });
          expect(after[0]?.v).toBe('777');
        } finally {
          await withService(suite.db, (tx) => tx.query('update chunks set is_live = true where id = $1', [nearIds[0]]));
        }
      });
    });

    it('returns runners_up rows past match_count through the index, the first match_count rows those of a call without them', async () => {
      // The index path over 10,000 passages; match-artifacts-runners-up.test.ts covers the exact path and the bounds.
      const call = (runnersUp: number) => withWorkspace(suite.db, big, (tx) => matchArtifacts(tx, { audience: EVERYTHING, workspaceId: big, embedding: query, matchCount: 5, runnersUp, minSimilarity: -1 }));
      const k = await call(0);
      const more = await call(10);
      expect(k).toHaveLength(5);
      expect(more).toHaveLength(15);
      expect(more.slice(0, 5)).toEqual(k);
    });

    it('rejects a match_count outside 1..50', async () => {
      await expect(
        withWorkspace(suite.db, small, (tx) => matchArtifacts(tx, { audience: EVERYTHING, workspaceId: small, embedding: query, matchCount: 0 })),
      ).rejects.toThrow(/match_count must be between 1 and 50/);
    });
  },
  { onNotice: (message) => notices.push(message) },
);
