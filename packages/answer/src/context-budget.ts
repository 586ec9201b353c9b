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
  /**
   * How much of what the question asks a piece of text holds. With it, a passage that must be cut
   * keeps the run of its text that holds the most (see cutToRelevantRun), its beginning unless a
   * later run holds strictly more; without it, its beginning.
   */
  relevance?: (text: string) => number;
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
 * A cut passage is one unbroken run of the passage's text (its beginning, or with `relevance` the
 * run that holds most of what was asked), so a quotation from it is still a quotation of the source.
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
    const budget = Math.max(1, cap);
    const content = options.relevance
      ? cutToRelevantRun(passage.content, budget, options.estimate, options.relevance)
      : cutToTokens(passage.content, budget, options.estimate);
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

/** Runs tried at most per cut passage besides its beginning: the first blocks after it. */
const MAX_RUN_STARTS = 80;
const FENCE_LINE = /^\s*(```|~~~)/;

/**
 * The run of `text` within `maxTokens` that holds the most by `relevance`: runs start at the
 * beginning or where a block begins outside code fences (a run opening inside a fence would turn
 * the rest of the passage into code) and end as cutToTokens ends them. The beginning wins
 * ties, so a passage whose opening holds as much as any later run is cut as before. Found by a
 * fact stated past the cut ("…you need free space on disk at least equal to the sum of the table
 * size and the index sizes", far down CLUSTER's notes).
 */
export function cutToRelevantRun(text: string, maxTokens: number, estimate: TokenEstimator, relevance: (text: string) => number): string {
  let best = cutToTokens(text, maxTokens, estimate);
  let bestScore = relevance(best);
  const starts = runStarts(text).slice(0, MAX_RUN_STARTS);
  // What a run from each start could hold at most: no more than the whole passage, nor than the
  // sum of its blocks' scores to the end. Once that bound is no better, no later run is: each cut
  // costs a search over token estimates, and most passages hold what was asked at their beginning.
  const reach = relevance(text);
  const tail = starts.map((start, i) => relevance(text.slice(start, starts[i + 1] ?? text.length)));
  for (let i = tail.length - 2; i >= 0; i--) tail[i] = (tail[i] ?? 0) + (tail[i + 1] ?? 0);
  for (const [i, start] of starts.entries()) {
    if (Math.min(reach, tail[i] ?? 0) <= bestScore) break;
    const run = cutToTokens(text.slice(start), maxTokens, estimate);
    const score = relevance(run);
    if (score > bestScore) {
      best = run;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Offsets after 0 where a block begins (a paragraph, a label, a list or a code block after a blank
 * line), outside fenced code: a run opening mid-paragraph or mid-list would lose what its first
 * sentence leans on (a signature, a list's lead-in).
 */
function runStarts(text: string): number[] {
  const starts: number[] = [];
  let inFence = false;
  let afterBlank = false;
  let offset = 0;
  for (const line of text.split('\n')) {
    const lineStart = offset;
    offset += line.length + 1;
    if (FENCE_LINE.test(line)) {
      inFence = !inFence;
      if (inFence && afterBlank && lineStart > 0) starts.push(lineStart);
      afterBlank = false;
      continue;
    }
    const blank = line.trim() === '';
    if (!inFence && !blank && afterBlank && lineStart > 0) starts.push(lineStart + (line.length - line.trimStart().length));
    afterBlank = blank;
  }
  return starts;
}
