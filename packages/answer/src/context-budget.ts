import type { Passage } from './types.ts';

export type TokenEstimator = (text: string) => number;

export interface BudgetOptions {
  /**
   * Tokens of passage content sent to the answerer at most (default 2,000: five full chunks of 400).
   * Titles and heading paths travel beside the content as short attributes and are not counted.
   */
  maxTokens?: number;
  /** A passage is never cut below this many tokens; lower-ranked passages are dropped instead (default 80). */
  minTokensPerPassage?: number;
  estimate: TokenEstimator;
}

export interface BudgetResult {
  passages: Passage[];
  /** True when any passage was cut or dropped. */
  trimmed: boolean;
  /** Numbers (`n`) of the passages dropped entirely, always the lowest-ranked. */
  dropped: number[];
  /** Numbers of the passages kept but cut. */
  cut: number[];
  tokens: number;
}

export const DEFAULT_CONTEXT_TOKENS = 2000;

/**
 * Fits the passages into the context budget. Passages are ranked; the policy keeps as many of them
 * as it can, because an answer that can cite several sources beats one long source:
 *   1. everything fits: nothing changes;
 *   2. otherwise the longest passages are cut first, to one common cap chosen so the total fits
 *      (shorter passages stay whole), each cut at a sentence end when one is near, else at a space;
 *   3. when that cap would fall below `minTokensPerPassage`, the lowest-ranked passage is dropped
 *      and step 2 is tried again.
 * Cut passages keep their beginning, so a quotation from them is still a quotation of the source.
 */
export function applyContextBudget(passages: readonly Passage[], options: BudgetOptions): BudgetResult {
  const maxTokens = options.maxTokens ?? DEFAULT_CONTEXT_TOKENS;
  const minShare = options.minTokensPerPassage ?? 80;
  const costOf = (p: Passage) => options.estimate(p.content);
  const costs = passages.map(costOf);
  const total = costs.reduce((a, b) => a + b, 0);
  if (total <= maxTokens) return { passages: [...passages], trimmed: false, dropped: [], cut: [], tokens: total };

  let kept = passages.length;
  let cap = capFor(costs.slice(0, kept), maxTokens);
  while (kept > 1 && cap < minShare) {
    kept--;
    cap = capFor(costs.slice(0, kept), maxTokens);
  }

  const out: Passage[] = [];
  const cut: number[] = [];
  let tokens = 0;
  for (const [i, passage] of passages.slice(0, kept).entries()) {
    const cost = costs[i] ?? 0;
    if (cost <= cap) {
      out.push(passage);
      tokens += cost;
      continue;
    }
    const content = cutToTokens(passage.content, Math.max(1, cap), options.estimate);
    out.push({ ...passage, content, truncated: true });
    cut.push(passage.n);
    tokens += options.estimate(content);
  }
  return { passages: out, trimmed: true, dropped: passages.slice(kept).map((p) => p.n), cut, tokens };
}

/** The largest per-passage cap L with Σ min(cost, L) ≤ budget (water-filling). */
function capFor(costs: number[], budget: number): number {
  const sorted = [...costs].sort((a, b) => a - b);
  let remaining = budget;
  for (const [i, cost] of sorted.entries()) {
    const share = Math.floor(remaining / (sorted.length - i));
    if (cost > share) return share;
    remaining -= cost;
  }
  return Number.POSITIVE_INFINITY;
}

/** The longest prefix within `maxTokens`, ending at a sentence end if one is in its last 40 %. */
export function cutToTokens(text: string, maxTokens: number, estimate: TokenEstimator): string {
  const spaces = [...text.matchAll(/\s+/g)].map((m) => m.index);
  let lo = 0;
  let hi = spaces.length - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (estimate(text.slice(0, spaces[mid])) <= maxTokens) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (best < 0) return text.slice(0, Math.max(1, maxTokens * 4)).trimEnd();
  const prefix = text.slice(0, spaces[best]);
  const sentenceEnd = Math.max(...[...prefix.matchAll(/[.!?]["'”’)]*(?=\s)/g)].map((m) => m.index + m[0].length), -1);
  return sentenceEnd >= prefix.length * 0.6 ? prefix.slice(0, sentenceEnd) : prefix.trimEnd();
}
