import { EVERYTHING, matchArtifacts, type AudienceFilter, type Database } from '@brain/db';
import { plansOf } from '@brain/db/testing/function-plans';
import type { BenchQuery } from './queries.ts';
import { EVERYONE_HNSW_INDEX, HNSW_INDEX } from './load.ts';
import { indexUsed } from './variants.ts';

/**
 * The plan match_artifacts really ran for a query, from auto_explain: the function is plpgsql,
 * so EXPLAIN of the call shows only a Function Scan; auto_explain logs the plans of the
 * statements inside it, sent back as NOTICEs. Its settings need a superuser, so they come before
 * the switch to brain_tenant, in the same transaction (what withWorkspace does after BEGIN).
 * Untimed: logging every plan costs more than the query.
 */
export async function productionPath(db: Database, notices: string[], query: BenchQuery): Promise<string> {
  return indexUsed(await functionPlans(db, notices, query, EVERYTHING));
}

/**
 * Which vector searches a filtered call ran: the everyone-readable passages' HNSW index, the
 * restricted passages' one, and the exact search of the allowed restricted passages when they are
 * few (its statement names them restricted), or none of these (exact path).
 */
export async function filteredPath(db: Database, notices: string[], query: BenchQuery, audience: AudienceFilter): Promise<string> {
  const plans = await functionPlans(db, notices, query, audience);
  const parts = [
    plans.includes(EVERYONE_HNSW_INDEX) ? 'everyone HNSW' : '',
    plans.includes(`Index Scan using ${HNSW_INDEX}`) ? 'restricted HNSW' : '',
    plans.includes('restricted.id') ? 'exact restricted' : '',
  ].filter(Boolean);
  return parts.length ? parts.join(' + ') : 'exact';
}

async function functionPlans(db: Database, notices: string[], query: BenchQuery, audience: AudienceFilter): Promise<string> {
  const plans = await plansOf(db, notices, query.workspaceId, (tx) =>
    matchArtifacts(tx, { audience, workspaceId: query.workspaceId, embedding: query.embedding, matchCount: 5, minSimilarity: -1 }),
  );
  if (!plans.includes('chunks')) throw new Error('auto_explain sent no plan: is it installed on the server?');
  return plans;
}
