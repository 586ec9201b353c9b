import { comparableText, termOf, terms } from './terms.ts';

/**
 * How often the question's words occur in the whole workspace: `documents` live passages, and for
 * each question term (in `terms()` form) the number of passages that contain it. Counts at or
 * above `cap` are reported as `cap` (counting further costs time and changes nothing: such a
 * term is generic either way).
 */
export interface TermStats {
  documents: number;
  frequencies: ReadonlyMap<string, number>;
  cap: number;
  /**
   * The passages that write each name the question writes as code, whole (codeNamesOf,
   * dottedNamesOf and letteredNamesOf): kept apart from `frequencies`, which weigh words, so that
   * only the coverage gate and the named passages read them.
   */
  codeNames?: ReadonlyMap<string, number>;
}

/**
 * A term in at least this share of the workspace's passages says nothing about which passage or
 * sentence answers ("default", "value", "size" in reference docs). Chosen on the tune half of the
 * eval sets (README "Retrieval quality").
 */
export const GENERIC_SHARE = 0.04;
/** Of a question whose every word is generic, those this many times as common as its rarest still count. */
const RELATIVE_SPREAD = 2;
/** Below this many passages a share means little: a term must be in this many to be generic. */
const GENERIC_MIN_PASSAGES = 3;

/**
 * A workspace of a page or a few (a newcomer's): fewer passages than this. There a word in three
 * passages is generic, so the word a page is about ("payload" on PostgreSQL's NOTIFY page, on 7 of
 * its 11 passages) is, and only its own term line ("`payload`") still says which passage defines
 * it. Set to tell a page or a few from a manual, not tuned: asked page by page (`brain eval
 * --each-page`), nine in ten workspaces hold under 75 passages; the eval sets' whole manuals hold
 * 191 passages and more, but for commander's README and the readme set's (64 passages each).
 */
export const SMALL_WORKSPACE_PASSAGES = 100;

/** Is this a workspace of a page or a few, where a definition's term line tells what a count cannot? */
export function isSmallWorkspace(stats: TermStats | undefined): boolean {
  return stats !== undefined && stats.documents > 0 && stats.documents < SMALL_WORKSPACE_PASSAGES;
}

/**
 * Do these texts hold less than half the weight of these terms (or are there none)? The question's
 * informative words mostly missing from what was retrieved: what it asks beyond a small page's own
 * words ("maximum", "size" of the NOTIFY payload) is not written there, and the page's definition
 * of the word it asks about is the best lead left.
 */
export function mostlyUnheld(wanted: readonly string[], texts: readonly string[], weight: (term: string) => number): boolean {
  const held = new Set(texts.flatMap((text) => terms(text)));
  const total = wanted.reduce((sum, t) => sum + weight(t), 0);
  const inTexts = wanted.reduce((sum, t) => sum + (held.has(t) ? weight(t) : 0), 0);
  return total === 0 || inTexts * 2 < total;
}

/** The passage count from which a term is generic in a workspace of `documents` passages. */
export function genericFrom(documents: number): number {
  return Math.max(GENERIC_MIN_PASSAGES, Math.ceil(GENERIC_SHARE * documents));
}

export interface TermWeights {
  /** Inverse document frequency of a question term. */
  weight(term: string): number;
  /** True for a question term too common to tell passages or sentences apart. */
  generic(term: string): boolean;
}

/**
 * Weights of the question's terms. With the workspace's counts, IDF over the workspace: the
 * same word weighs the same whichever passages were retrieved. Without them (a caller that
 * only has the passages), IDF over the retrieved passages, and a term in more than half of
 * them (at least 3) is generic.
 */
export function termWeights(
  wanted: ReadonlySet<string>,
  sentenceTexts: readonly string[],
  passageTexts: readonly string[],
  stats?: TermStats,
): TermWeights {
  if (stats && stats.documents > 0) {
    const n = stats.documents;
    const from = genericFrom(n);
    const df = (t: string) => stats.frequencies.get(t) ?? 0;
    // When every word of the question is generic (a workspace of one product's docs), the least
    // common of them still tell passages apart: those in at most RELATIVE_SPREAD times as many
    // passages as the rarest, and in under half of the workspace.
    // The question's words only: values it writes ("~1.2.3") are counted beside them, to be weighed,
    // but say nothing of whether its words are all common.
    const counts = [...stats.frequencies].flatMap(([t, count]) => (wanted.has(t) ? [count] : []));
    const rarest = Math.min(...counts);
    const allGeneric = counts.length > 0 && rarest >= from;
    const telling = (t: string) => allGeneric && df(t) <= RELATIVE_SPREAD * rarest && df(t) * 2 < n;
    return {
      // A count of 0 with the word in a passage is a stemming difference (Porter here, Snowball in
      // PostgreSQL): the word is as rare as can be.
      weight: (t) => Math.log(1 + (n - df(t) + 0.5) / (df(t) + 0.5)),
      generic: (t) => df(t) >= from && !telling(t),
    };
  }
  const inSentences = countIn(sentenceTexts, wanted);
  const inPassages = countIn(passageTexts, wanted);
  const n = sentenceTexts.length;
  return {
    // A term only in headings has no sentence count, and is then as rare as can be.
    weight: (t) => {
      const df = inSentences.get(t) ?? 0;
      return Math.log(1 + (n - df + 0.5) / (df + 0.5));
    },
    generic: (t) => passageTexts.length >= 3 && (inPassages.get(t) ?? 0) * 2 > passageTexts.length,
  };
}

function countIn(texts: readonly string[], wanted: ReadonlySet<string>): Map<string, number> {
  const df = new Map<string, number>();
  for (const text of texts) for (const t of new Set(terms(text))) if (wanted.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
  return df;
}

/** The question's words as the database should count them: distinct, in `terms()` order. */
export function questionTokens(question: string): { token: string; term: string }[] {
  const seen = new Set<string>();
  const out: { token: string; term: string }[] = [];
  for (const match of comparableText(question).matchAll(/[\p{L}\p{N}_]+/gu)) {
    const token = match[0];
    const [term] = terms(token);
    if (term === undefined || seen.has(token)) continue;
    seen.add(token);
    out.push({ token, term: termOf(token) });
  }
  return out;
}

/** The question's words and their weights over the workspace's counts, as every scorer reads them. */
export function weighQuestion(question: string, stats: TermStats): { tokens: { token: string; term: string }[]; weights: TermWeights } {
  const tokens = questionTokens(question);
  return { tokens, weights: termWeights(new Set(tokens.map((t) => t.term)), [], [], stats) };
}
