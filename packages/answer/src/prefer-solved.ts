import type { ArtifactMatch, Queryable } from '@brain/db';

/**
 * How much more a passage from a solved thread weighs than its fused score says: ×1.05. Fusion's
 * score is 1/(60 + rank) per leg, so near the top of the list ×1.05 is worth about three places
 * (60 + r shrinks by 5%): a solved passage overtakes an unsolved one ranked up to three places
 * above it in the same legs, never one that more legs found. Chosen before the solved-threads
 * eval (bench/solved) was run, and not tuned on it.
 */
export const SOLVED_BOOST = 1.05;

/**
 * A small, explainable preference, applied after fusion: passages of sources whose metadata says
 * `solved` (a forum post tagged solved, ✅ by its author or staff, or "Mark solved") have their
 * score multiplied by `boost` and the list is re-sorted (stably, so ties keep fusion's order).
 * Only reorders what match_artifacts returned, so a workspace without solved sources gets
 * exactly the same passages in the same order. Inside the caller's tenant transaction.
 */
export async function preferSolved(tx: Queryable, workspaceId: string, matches: ArtifactMatch[], boost = SOLVED_BOOST): Promise<ArtifactMatch[]> {
  if (matches.length < 2 || boost === 1) return matches;
  const rows = await tx.query<{ id: string }>(
    `select id from public.artifacts where workspace_id = $1 and id = any($2::uuid[]) and metadata->>'solved' = 'true'`,
    [workspaceId, [...new Set(matches.map((m) => m.artifactId))]],
  );
  if (rows.length === 0) return matches;
  const solved = new Set(rows.map((r) => r.id));
  return matches
    .map((m, i) => ({ m: solved.has(m.artifactId) ? { ...m, score: m.score * boost } : m, i }))
    .sort((a, b) => b.m.score - a.m.score || a.i - b.i)
    .map((x) => x.m);
}
