import type { ArtifactMatch } from '@brain/db';

/** How many passages past the k are read to find those both legs rank near their top. */
export const RUNNERS_UP_READ = 10;
/** A runner-up is kept when both legs rank it at least this high. */
const AGREED_RANK = 3;
/** Runners-up kept at most. */
const KEEP = 2;

/**
 * The k the answer reads, with up to two runners-up that both legs rank among their first three in
 * the places of the lowest-ranked passages that are not (never the best one). Fusion counts each
 * further passage of a page 70 % of the one before, which spreads the k over pages: a page's
 * second passage that the vector leg ranks first and the keyword leg third ("Isolation In SQLite ›
 * Isolation Between Database Connections", which says transactions are serializable) falls below
 * other pages' passages that one leg barely found. Page-level recall is what that spread buys;
 * the answer needs the passage that states the fact, and two legs that agree on it are the
 * strongest sign retrieval has. Taking places rather than adding passages keeps the context's size:
 * added, they cut the others to the token budget and cost as many answers as they gained (the tune
 * halves, docs/retrieval-and-evaluation.md, where the rank of three was chosen over five).
 */
export function withAgreedRunnersUp(matches: readonly ArtifactMatch[], runnersUp: readonly ArtifactMatch[]): ArtifactMatch[] {
  const agreed = (m: ArtifactMatch) => near(m.vectorRank) && near(m.keywordRank);
  const kept = [...matches];
  for (const runnerUp of runnersUp.filter(agreed).slice(0, KEEP)) {
    const weakest = kept.findLastIndex((m, i) => i > 0 && !agreed(m));
    if (weakest < 0) break;
    kept.splice(weakest, 1);
    kept.push(runnerUp);
  }
  return kept;
}

function near(rank: number | null): boolean {
  return rank !== null && rank <= AGREED_RANK;
}
