import { EXTRACTIVE_LABEL } from './messages.ts';
import { collapseWhitespace, sentenceSpans } from './text/sentences.ts';
import { termSet, terms } from './text/terms.ts';
import type { Answerer, AnswerOutput, AnswerRequest, Passage } from './types.ts';

export const EXTRACTIVE_MODEL = 'extractive-v1';

export interface ExtractiveOptions {
  /** Sentences in the answer at most (default 4). */
  maxSentences?: number;
  /** Characters of quoted text at most, before the label and the markers (default 900). */
  maxChars?: number;
}

interface Candidate {
  passage: Passage;
  position: number;
  text: string;
  /** The passage's heading path and the heading line above the sentence inside the passage. */
  context: string;
  /** Terms of the heading line above the sentence inside the passage (empty above the first). */
  sectionTerms: Set<string>;
  /** The sentence's own section: that heading line, else the last part of the passage's heading. */
  ownSection: Set<string>;
  /** Index of the sentence under its nearest heading: a section's first sentences define it. */
  sectionPosition: number;
  matched: Set<string>;
  score: number;
}

// BM25's usual constants, applied to sentences instead of documents.
const K1 = 1.2;
const B = 0.75;
/** A question term found in the sentence's headings counts this much of a term in the sentence. */
const HEADING_WEIGHT = 0.6;
const MAX_SENTENCE_CHARS = 500;
// A sentence that carries its own "[2]" could pass itself off as a citation of another passage.
const BRACKETED_NUMBER = /\[\s*\d[\d\s,–-]*\]/;

/**
 * The answerer used when no chat model is configured. It only ever quotes: it picks the
 * sentences of the retrieved passages that share the most informative terms with the question
 * (BM25 over sentences, with the question and passages normalised and Porter-stemmed alike),
 * favours better-ranked passages and earlier sentences a little, and spreads its picks across
 * passages (a sentence whose matched terms are already covered counts for less). Text found in a
 * passage is never interpreted, so instructions planted in a saved document have nothing to act on.
 * Deterministic: the same question and passages give the same answer.
 */
export function createExtractiveAnswerer(options: ExtractiveOptions = {}): Answerer {
  const maxSentences = options.maxSentences ?? 4;
  const maxChars = options.maxChars ?? 900;
  return {
    kind: 'extractive',
    model: EXTRACTIVE_MODEL,
    async answer(request: AnswerRequest): Promise<AnswerOutput> {
      const picked = pickSentences(request.question, request.passages, maxSentences, maxChars);
      const lines = picked.map((c) => `> ${displayText(c.text)} [${c.passage.n}]`);
      return { text: `${EXTRACTIVE_LABEL}\n${lines.join('\n')}`, model: EXTRACTIVE_MODEL, kind: 'extractive' };
    },
  };
}

export function pickSentences(
  question: string,
  passages: readonly Passage[],
  maxSentences: number,
  maxChars: number,
): Candidate[] {
  const wanted = termSet(question);
  const all = candidatesOf(passages);
  if (all.length === 0) return [];
  score(all, wanted, passages);

  const picked: Candidate[] = [];
  const covered = new Set<string>();
  const perPassage = new Map<number, number>();
  let chars = 0;
  const pool = all.filter((c) => c.score > 0);
  while (picked.length < maxSentences && pool.length > 0) {
    let bestIndex = -1;
    let best = 0;
    for (const [i, c] of pool.entries()) {
      const adjusted = c.score * novelty(c, covered) * (1 / (1 + 0.35 * (perPassage.get(c.passage.n) ?? 0)));
      if (adjusted > best) {
        best = adjusted;
        bestIndex = i;
      }
    }
    const first = picked[0];
    // Stop rather than pad the answer with sentences far weaker than the best one.
    if (bestIndex < 0 || (first && best < 0.3 * first.score)) break;
    const [chosen] = pool.splice(bestIndex, 1);
    if (!chosen) break;
    const length = displayText(chosen.text).length;
    if (picked.length > 0 && chars + length > maxChars) continue;
    picked.push(chosen);
    chars += length;
    for (const t of chosen.matched) covered.add(t);
    perPassage.set(chosen.passage.n, (perPassage.get(chosen.passage.n) ?? 0) + 1);
  }
  // Nothing shares a term with the question (retrieved on meaning alone): quote the opening of
  // the best passage rather than nothing; the label already says these are quotations.
  if (picked.length === 0) {
    const opening = all.find((c) => c.passage.n === passages[0]?.n) ?? all[0];
    if (opening) picked.push(opening);
  }
  return orderForReading(picked);
}

function candidatesOf(passages: readonly Passage[]): Candidate[] {
  const out: Candidate[] = [];
  for (const passage of passages) {
    let sectionPosition = 0;
    let section: string | null = null;
    for (const [position, span] of sentenceSpans(passage.content).entries()) {
      sectionPosition = span.heading === section ? sectionPosition + 1 : 0;
      section = span.heading;
      if (BRACKETED_NUMBER.test(span.text)) continue;
      // "Or `async/await`:" introduces a code block that an extractive answer cannot show.
      if (span.text.endsWith(':') && terms(span.text).length < 3) continue;
      const context = `${passage.title ?? ''} ${passage.heading ?? ''} ${span.heading ?? ''}`;
      const sectionTerms = termSet(span.heading ?? '');
      const ownSection = span.heading ? sectionTerms : termSet(passage.heading?.split(' › ').at(-1) ?? passage.title ?? '');
      out.push({ passage, position, sectionPosition, text: span.text, context, sectionTerms, ownSection, matched: new Set(), score: 0 });
    }
  }
  return out;
}

function score(all: Candidate[], wanted: Set<string>, passages: readonly Passage[]): void {
  const termLists = all.map((c) => terms(c.text));
  const df = new Map<string, number>();
  for (const list of termLists) for (const t of new Set(list)) if (wanted.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t: string) => {
    const n = df.get(t) ?? 0;
    return Math.log(1 + (all.length - n + 0.5) / (n + 0.5));
  };
  const avgLength = termLists.reduce((sum, l) => sum + l.length, 0) / all.length || 1;
  const rankOf = new Map(passages.map((p, i) => [p.n, i]));
  // When the question names a section ("connectionTimeout"), sentences of other sections of the
  // same passages ("keepAliveTimeout: Default 72000") are about something else.
  const namesSection = (c: Candidate) => [...c.sectionTerms].some((t) => wanted.has(t));
  const focused = all.some(namesSection);

  for (const [i, c] of all.entries()) {
    const list = termLists[i] ?? [];
    const tf = new Map<string, number>();
    for (const t of list) if (wanted.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
    let relevance = 0;
    for (const [t, f] of tf) {
      relevance += (idf(t) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * list.length) / avgLength));
      c.matched.add(t);
    }
    // "Default: 1048576 (1MiB)" answers "default bodyLimit?" because it sits under "bodyLimit".
    // A sentence that shares no word with the question counts only inside a section the question
    // names: at least half of that section heading's terms are in the question.
    if (relevance === 0 && !namedBy(c.ownSection, wanted)) continue;
    for (const t of termSet(c.context)) if (wanted.has(t) && !tf.has(t)) relevance += HEADING_WEIGHT * idf(t);
    // A sentence made only of the question's own words ("FST_ERR_X") tells the asker nothing new.
    const novel = list.filter((t) => !wanted.has(t)).length;
    c.score =
      relevance *
      Math.min(1, (novel + 2) / 4) *
      (focused && !namesSection(c) ? 0.6 : 1) *
      (1 / (1 + 0.1 * (rankOf.get(c.passage.n) ?? 0))) *
      (1 - 0.04 * Math.min(c.sectionPosition, 10));
  }
}

function namedBy(section: Set<string>, wanted: Set<string>): boolean {
  let hits = 0;
  for (const t of section) if (wanted.has(t)) hits++;
  return hits > 0 && hits * 2 >= section.size;
}

/** 1 for a sentence whose matched terms are all new, down to 0.5 when all are already covered. */
function novelty(c: Candidate, covered: Set<string>): number {
  if (c.matched.size === 0) return 1;
  let seen = 0;
  for (const t of c.matched) if (covered.has(t)) seen++;
  return 1 - 0.5 * (seen / c.matched.size);
}

/** Passages in the order of their best pick; within a passage, sentences in document order. */
function orderForReading(picked: Candidate[]): Candidate[] {
  const firstPick = new Map<number, number>();
  for (const [i, c] of picked.entries()) if (!firstPick.has(c.passage.n)) firstPick.set(c.passage.n, i);
  return [...picked].sort(
    (a, b) => (firstPick.get(a.passage.n) ?? 0) - (firstPick.get(b.passage.n) ?? 0) || a.position - b.position,
  );
}

/** Joins hard-wrapped lines; a very long sentence is cut at a word and marked with an ellipsis. */
function displayText(text: string): string {
  const flat = collapseWhitespace(text);
  if (flat.length <= MAX_SENTENCE_CHARS) return flat;
  const cut = flat.lastIndexOf(' ', MAX_SENTENCE_CHARS);
  return `${flat.slice(0, cut > 0 ? cut : MAX_SENTENCE_CHARS)} …`;
}
