import type { TermStats } from '../src/text/term-weights.ts';
import { termOf } from '../src/text/terms.ts';

/** A workspace's counts as `search` reports them: `documents` passages, each word (as written) in that many. */
export function workspaceCounts(documents: number, counts: Record<string, number>, cap: number = documents): TermStats {
  return { documents, cap, frequencies: new Map(Object.entries(counts).map(([word, n]) => [termOf(word), n])) };
}
