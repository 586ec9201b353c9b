import { EXTRACTIVE_LABEL } from './messages.ts';
import { collapseWhitespace, sentenceSpans, type SentenceSpan, type TextRange } from './text/sentences.ts';
import { termWeights, type TermWeights } from './text/term-weights.ts';
import { normalise, termSet, terms } from './text/terms.ts';
import { namesIn } from './coverage-gate.ts';
import type { Answerer, AnswerOutput, AnswerRequest, Passage } from './types.ts';

export const EXTRACTIVE_MODEL = 'extractive-v2';

export interface ExtractiveOptions {
  /** Quotations in the answer at most: a sentence with what it needs around it (default 4). */
  maxSentences?: number;
  /** Characters of quoted text at most, before the label and the markers (default 900). */
  maxChars?: number;
}

interface Candidate {
  passage: Passage;
  /** 0 for the best-ranked passage. */
  rank: number;
  span: SentenceSpan;
  /** Every span of the passage, to find the sentence that continues this one. */
  siblings: readonly SentenceSpan[];
  position: number;
  /** The passage's heading path and the heading or label above the sentence. */
  context: string;
  /** Terms of the heading or label above the sentence inside the passage (empty above the first). */
  sectionTerms: Set<string>;
  /** The heading and label text above the sentence, and its own section's text, as written. */
  sectionText: string;
  ownSectionText: string;
  /** The sentence's own section: that heading or label, else the last part of the passage's heading. */
  ownSection: Set<string>;
  /** Index of the sentence under its nearest heading or label: a section's first sentences define it. */
  sectionPosition: number;
  /** The sentence is in the paragraph right under its label, the one a label surely describes. */
  besideLabel: boolean;
  /** The sentence's own terms. */
  ownTerms: Set<string>;
  /** Question terms found in the sentence or the headings above it. */
  matched: Set<string>;
  /** The question names a section of the passages, and not this sentence's. */
  offSection: boolean;
  /** The question names the sentence's own section (its heading or label). */
  inNamedSection: boolean;
  /** The matched terms that are not generic. */
  informative: Set<string>;
  score: number;
}

/** A quotation: verbatim ranges of one passage, in document order, each quoted on its own line. */
interface Quote {
  candidate: Candidate;
  ranges: TextRange[];
  /** The short code block its last sentence announces, shown as the page shows it. */
  code: TextRange | null;
  chars: number;
}

// BM25's usual constants, applied to sentences instead of documents.
const K1 = 1.2;
const B = 0.75;
/** A question term found in the sentence's headings counts this much of a term in the sentence. */
const HEADING_WEIGHT = 0.6;
/** How many sentences under a named heading or label count as its definition. */
const DEFINING_SENTENCES = 3;
const MAX_SENTENCE_CHARS = 500;
/** A sentence and those continuing it are quoted together up to this length, and this many. */
const WINDOW_CHARS = 500;
const MAX_CONTINUATIONS = 2;
const MAX_LIST_ITEMS = 4;
/** A code block an announcing sentence is quoted with: its fences included, at most this long. */
const MAX_CODE_LINES = 10;
const MAX_CODE_CHARS = 400;
const FENCE_LINE = /^[ \t]*(?:```|~~~)/m;
/** A quotation shorter than this is a value or a title rather than a statement. */
const SHORT_CHARS = 60;
/**
 * A sentence without the rarest term the question shares with the passages (its topic: "jsonb",
 * not "key" or "value") counts this much: "json keeps every key" is not an answer about jsonb.
 */
const OFF_TOPIC = 0.5;
// Words by which a sentence leans on the one before it ("In the default configuration it must
// be shorter than 8000 bytes."): English pronouns, determiners and connectives, nothing topical.
const REFERS_BACK = /^\W*(?:\S+\s+){0,5}?(?:it|its|this|these|those|that|they|them|their|such|so|thus|then|otherwise|however|also|instead|both|either|neither|each|here|there)\b/iu;
// A sentence that carries its own "[2]" could pass itself off as a citation of another passage.
const BRACKETED_NUMBER = /\[\s*\d[\d\s,–-]*\]/;

/**
 * The answerer used when no chat model is configured. It only ever quotes: it picks the
 * sentences of the retrieved passages that share the most informative terms with the question
 * (BM25 over sentences, with the question and passages normalised and Porter-stemmed alike, each
 * term weighted by its rarity in the workspace when the caller knows it), and quotes each with
 * what it cannot be read without: the sentence that continues it, a list item's lead-in, a table
 * row's header, the heading or label of the setting it describes. A sentence whose only overlap
 * with the question is a generic word is never quoted, and a passage other than those already
 * quoted is quoted only for a question term the answer does not cover yet. Text found in a
 * passage is never interpreted, so instructions planted in a saved document have nothing to act
 * on. Deterministic: the same question and passages give the same answer.
 */
export function createExtractiveAnswerer(options: ExtractiveOptions = {}): Answerer {
  const maxQuotes = options.maxSentences ?? 4;
  const maxChars = options.maxChars ?? 900;
  return {
    kind: 'extractive',
    model: EXTRACTIVE_MODEL,
    async answer(request: AnswerRequest): Promise<AnswerOutput> {
      const quotes = pickQuotes(request, maxQuotes, maxChars);
      const lines = quotes.flatMap((q) => [...q.ranges.map((r) => `> ${displayText(r.text)} [${q.candidate.passage.n}]`), ...(q.code ? [q.code.text] : [])]);
      return { text: `${EXTRACTIVE_LABEL}\n${lines.join('\n')}`, model: EXTRACTIVE_MODEL, kind: 'extractive' };
    },
  };
}

function pickQuotes(request: AnswerRequest, maxQuotes: number, maxChars: number): Quote[] {
  const { question, passages } = request;
  const wanted = termSet(question);
  const all = candidatesOf(passages);
  if (all.length === 0) return [];
  const weights = termWeights(
    wanted,
    all.map((c) => c.span.text),
    passages.map((p) => `${p.heading ?? ''} ${p.content}`),
    request.termStats,
  );
  score(all, request.question, wanted, weights);

  // Once any sentence shares an informative term with the question, a lower passage's sentences
  // that share only generic ones ("maximum", "default") are about something else. The best
  // passage was ranked first for the question as a whole, so its sentences need no such proof.
  const informativeSeen = all.some((c) => c.informative.size > 0);
  const pool = all.filter((c) => c.score > 0 && (!informativeSeen || (c.rank === 0 && !c.offSection) || c.informative.size > 0));

  const picked: Quote[] = [];
  const shown: { n: number; range: TextRange }[] = [];
  const covered = new Set<string>();
  const perPassage = new Map<number, number>();
  let chars = 0;
  while (picked.length < maxQuotes && pool.length > 0) {
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
    if (bestIndex < 0 || (first && best < 0.15 * first.candidate.score)) break;
    const [chosen] = pool.splice(bestIndex, 1);
    if (!chosen) break;
    if (isShown(shown, chosen.passage.n, chosen.span)) continue;
    const quote = quoteOf(chosen, wanted, shown, picked.length === 0);
    if (picked.length > 0 && chars + quote.chars > maxChars) continue;
    picked.push(quote);
    chars += quote.chars;
    for (const r of quote.ranges) shown.push({ n: chosen.passage.n, range: r });
    for (const t of chosen.matched) covered.add(t);
    perPassage.set(chosen.passage.n, (perPassage.get(chosen.passage.n) ?? 0) + 1);
  }
  // Nothing shares a term with the question (retrieved on meaning alone): quote the opening of
  // the best passage rather than nothing; the label already says these are quotations.
  if (picked.length === 0) {
    const opening = all.find((c) => c.passage.n === passages[0]?.n) ?? all[0];
    if (opening) picked.push({ candidate: opening, ranges: [opening.span], code: null, chars: opening.span.text.length });
  }
  return orderForReading(picked);
}

function candidatesOf(passages: readonly Passage[]): Candidate[] {
  const out: Candidate[] = [];
  for (const [rank, passage] of passages.entries()) {
    let sectionPosition = 0;
    let section: TextRange | null = null;
    const spans = sentenceSpans(passage.content);
    // A table's header row names the columns of the rows below it: it is their context, not a fact.
    const headers = new Set(spans.flatMap((s) => (s.kind === 'row' && s.lead ? [s.lead] : [])));
    const firstBlock = new Map<TextRange, number>();
    for (const s of spans) if (s.label && !firstBlock.has(s.label)) firstBlock.set(s.label, s.block);
    for (const [position, span] of spans.entries()) {
      if (headers.has(span)) continue;
      sectionPosition = span.label === section ? sectionPosition + 1 : 0;
      section = span.label;
      if (BRACKETED_NUMBER.test(span.text)) continue;
      // "Or `async/await`:" introduces a code block that an extractive answer cannot show.
      if (span.text.endsWith(':') && terms(span.text).length < 3) continue;
      const labelText = span.label?.text ?? '';
      const context = `${passage.title ?? ''} ${passage.heading ?? ''} ${span.heading ?? ''} ${labelText} ${span.lead?.text ?? ''}`;
      const sectionTerms = termSet(`${span.heading ?? ''} ${labelText}`);
      const ownSectionText = span.label ? labelText : (passage.heading?.split(' › ').at(-1) ?? passage.title ?? '');
      const ownSection = termSet(ownSectionText);
      out.push({
        passage, rank, span, siblings: spans, position, sectionPosition, besideLabel: span.label !== null && firstBlock.get(span.label) === span.block, context, sectionTerms, sectionText: `${span.heading ?? ''} ${labelText}`, ownSection, ownSectionText, ownTerms: termSet(span.text),
        matched: new Set(), informative: new Set(), offSection: false, inNamedSection: false, score: 0,
      });
    }
  }
  return out;
}

function score(all: Candidate[], question: string, wanted: Set<string>, weights: TermWeights): void {
  const termLists = all.map((c) => terms(c.span.text));
  const avgLength = termLists.reduce((sum, l) => sum + l.length, 0) / all.length || 1;
  // When the question names a section ("connectionTimeout"), sentences of other sections of the
  // same passages ("keepAliveTimeout: Default 72000") are about something else.
  // Named, not merely touched: "Is http.server recommended?" shares two words with the label
  // "class http.server.HTTPServer(server_address, …)" yet asks about the module, not that class.
  const namesSection = (c: Candidate) => [...c.sectionTerms].some((t) => wanted.has(t) && !weights.generic(t)) && namedBy(c.sectionText, c.sectionTerms, question, wanted);
  const focused = new Set(all.filter(namesSection).map((c) => c.passage.n));

  const contextTerms = all.map((c) => termSet(c.context));
  const present = new Set<string>();
  for (const [i, list] of termLists.entries()) {
    for (const t of [...list, ...(contextTerms[i] ?? [])]) if (wanted.has(t) && !weights.generic(t)) present.add(t);
  }
  // The topic is the one rarest term; a tie names no topic.
  const ranked = [...present].sort((x, y) => weights.weight(y) - weights.weight(x));
  const anchor = ranked.length > 1 && weights.weight(ranked[0] ?? '') > weights.weight(ranked[1] ?? '') ? ranked[0] : undefined;

  for (const [i, c] of all.entries()) {
    const list = termLists[i] ?? [];
    c.offSection = focused.has(c.passage.n) && !namesSection(c);
    const tf = new Map<string, number>();
    for (const t of list) if (wanted.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
    let relevance = 0;
    for (const [t, f] of tf) {
      relevance += (weights.weight(t) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * list.length) / avgLength));
      c.matched.add(t);
    }
    // "Default: 1048576 (1MiB)" answers "default bodyLimit?" because it sits under "bodyLimit".
    // A sentence that shares no word with the question counts only inside a section the question
    // names: at least half of that section heading's terms are in the question.
    const ownNamed = namedBy(c.ownSectionText, c.ownSection, question, wanted);
    c.inNamedSection = ownNamed;
    if (relevance === 0 && !ownNamed) continue;
    // The first sentences under a heading or label the question names define it: they are about
    // that name as much as a sentence that spells it out ("forceCloseConnections" › "When set to
    // `true`, the server will destroy their sockets").
    const defines = c.sectionPosition < DEFINING_SENTENCES && ownNamed;
    for (const t of contextTerms[i] ?? []) {
      if (!wanted.has(t) || tf.has(t)) continue;
      relevance += (defines && c.ownSection.has(t) ? 1 : HEADING_WEIGHT) * weights.weight(t);
      c.matched.add(t);
    }
    for (const t of c.matched) if (!weights.generic(t)) c.informative.add(t);
    // A sentence made only of the question's own words ("FST_ERR_X" in a table of contents)
    // tells the asker nothing new.
    // A definition that restates the question ("The final path component, without its suffix")
    // answers it with its label ("PurePath.stem"), which is quoted with it.
    const labelNovel = c.span.label && c.sectionPosition <= 1 ? terms(c.span.label.text).filter((t) => !wanted.has(t)).length : 0;
    const novel = list.filter((t) => !wanted.has(t)).length + labelNovel;
    if (novel === 0 && list.length > 0) continue;
    c.score =
      relevance *
      Math.min(1, (novel + 2) / 4) *
      (c.offSection ? 0.6 : 1) *
      (anchor !== undefined && !c.matched.has(anchor) ? OFF_TOPIC : 1) *
      (1 / (1 + 0.1 * c.rank)) *
      (1 - 0.04 * Math.min(c.sectionPosition, 10));
  }
}

/**
 * The sentence with what it cannot be read without: a list item's lead-in or a table row's
 * header; the heading or label above it when the question names that section; and the sentence
 * that continues it in the same paragraph ("In the default configuration it must be shorter
 * than 8000 bytes."), joined on one line since they are one run of the passage's text.
 */
function quoteOf(c: Candidate, wanted: Set<string>, shown: readonly { n: number; range: TextRange }[], first: boolean): Quote {
  const ranges: TextRange[] = [];
  const n = c.passage.n;
  const lead = c.span.lead;
  const label = c.span.label;
  if (lead && !isShown(shown, n, lead)) ranges.push(lead);
  // A label surely describes only the paragraph right under it: the page's text does not say where
  // its description ends ("exception copy.Error" › "Raised for module specific errors.", then the
  // module's own "The difference between shallow and deep copying…"), so a later paragraph is
  // quoted under it only when the question names it.
  else if (!lead && label && ((c.besideLabel && (c.sectionPosition <= 1 || [...termSet(label.text)].some((t) => c.informative.has(t)))) || c.inNamedSection) && !isShown(shown, n, label)) ranges.push(label);
  // The sentences that continue it, while each leans on the one before or stays on its terms.
  // Past the end of its paragraph only when what is quoted so far cannot stand alone: it
  // announces what follows ("the following steps happen in order:") or is a bare value line
  // ("Default: `true`") whose section goes on to say what it means.
  let end = c.span;
  // Each list item of the window is quoted on its own line, as the page shows it.
  let from = c.span;
  const cut = (next: SentenceSpan) => {
    if (next.kind !== 'item' || next.block === end.block) return;
    ranges.push(rangeOf(c.passage.content, from, end));
    from = next;
  };
  // A lead-in that announces a list goes on through its items ("The difference between shallow
  // and deep copying is only relevant for compound objects: - A shallow copy … - A deep copy …").
  const announcesList = /:\s*$/.test(c.span.text) && c.siblings[c.position + 1]?.lead === c.span;
  const last = c.position + (announcesList || (c.inNamedSection && c.span.kind === 'item') ? MAX_LIST_ITEMS : MAX_CONTINUATIONS);
  for (let i = c.position + 1; i <= last; i++) {
    // Code ends the window: it is shown as a block of its own, never run into a quoted line.
    if (end.code) break;
    const next = c.siblings[i];
    if (announcesList && next !== undefined && next.lead === c.span) {
      if (next.end - c.span.start > WINDOW_CHARS || isShown(shown, n, next)) break;
      cut(next);
      end = next;
      continue;
    }
    if (next === undefined || next.label !== c.span.label || next.end - c.span.start > WINDOW_CHARS) break;
    if (FENCE_LINE.test(c.passage.content.slice(end.end, next.start))) break;
    if (isShown(shown, n, next) || BRACKETED_NUMBER.test(next.text)) break;
    const sameBlock = next.block === end.block;
    const announces = /:\s*$/.test(end.text);
    const bareValue = !/[.!?]["'”’)\]]*\s*$/.test(end.text) && end.end - c.span.start < SHORT_CHARS && end.kind !== 'row' && next.kind === 'sentence';
    const incomplete = announces || bareValue;
    const leans = REFERS_BACK.test(next.text) || terms(next.text).some((t) => wanted.has(t) || c.ownTerms.has(t));
    // The items of a list under the heading the question names are its values or steps, read
    // together ("trustProxy" › `true/false`: …, `string`: …, `Array<string>`: …).
    const listGoesOn = c.inNamedSection && end.kind === 'item' && next.kind === 'item' && next.block === end.block + 1 && next.lead === c.span.lead;
    // The best quotation also takes the paragraph after it when that one goes on about the same
    // thing: the question's second half ("…and what should I use instead?") is often answered there.
    const goesOn = first && next.kind === 'sentence' && end.kind === 'sentence' && next.block === end.block + 1 && terms(next.text).some((t) => c.ownTerms.has(t) && !wanted.has(t));
    if (!(sameBlock ? leans || incomplete : incomplete || listGoesOn || goesOn)) break;
    cut(next);
    end = next;
  }
  ranges.push(rangeOf(c.passage.content, from, end));
  // "Using default factory functions is a way to … for fields:" is answered by the code after it.
  const code = end.code && end.code.text.split('\n').length <= MAX_CODE_LINES && end.code.text.length <= MAX_CODE_CHARS ? end.code : null;
  const chars = ranges.reduce((sum, r) => sum + displayText(r.text).length, 0) + (code?.text.length ?? 0);
  return { candidate: c, ranges, code, chars };
}

function rangeOf(content: string, from: SentenceSpan, to: SentenceSpan): TextRange {
  return from === to ? from : { start: from.start, end: to.end, text: content.slice(from.start, to.end) };
}

function isShown(shown: readonly { n: number; range: TextRange }[], n: number, range: TextRange): boolean {
  return shown.some((s) => s.n === n && s.range.start <= range.start && range.end <= s.range.end);
}

/**
 * Does the question name this heading or label? One that names something ("copy.deepcopy(x[,
 * memo])", "bodyLimit") is named only by that name as written: "deep copy" names no function,
 * and "http.server" is not the class "http.server.HTTPServer". Other headings are named when
 * the question holds at least half of their terms.
 */
function namedBy(text: string, section: Set<string>, question: string, wanted: Set<string>): boolean {
  const ids = namesIn(text).filter(isIdentifier);
  if (ids.length > 0) {
    const asked = normalise(question);
    // "ArgumentParser.add_argument(…)" is also named by "add_argument", a name on its own.
    const forms = ids.flatMap((id) => {
      const parts = id.split('.');
      return parts.map((_, i) => parts.slice(i).join('.')).filter((f, i) => i === 0 || isIdentifier(f));
    });
    return forms.some((f) => new RegExp(`(?<![\\p{L}\\p{N}_.])${escapeRegExp(normalise(f))}(?![\\p{L}\\p{N}_]|\\.[\\p{L}\\p{N}_])`, 'u').test(asked));
  }
  return namedByTerms(section, wanted);
}

function isIdentifier(word: string): boolean {
  return /[_.\d]|\p{Ll}\p{Lu}/u.test(word);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function namedByTerms(section: Set<string>, wanted: Set<string>): boolean {
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

/**
 * The best quotation first, since it is the likeliest to state the fact; then the rest, a
 * passage's quotations together and in the order the page has them, as the passages were first
 * picked: read in pick order, a later sentence of the page can come before the one it follows.
 */
function orderForReading(picked: Quote[]): Quote[] {
  const [best, ...rest] = picked;
  if (!best) return [];
  const firstPick = new Map<number, number>();
  for (const [i, q] of picked.entries()) if (!firstPick.has(q.candidate.passage.n)) firstPick.set(q.candidate.passage.n, i);
  const startOf = (q: Quote) => q.ranges[0]?.start ?? q.candidate.span.start;
  return [best, ...rest.sort((a, b) => (firstPick.get(a.candidate.passage.n) ?? 0) - (firstPick.get(b.candidate.passage.n) ?? 0) || startOf(a) - startOf(b))];
}

/** Joins hard-wrapped lines; a very long sentence is cut at a word and marked with an ellipsis. */
function displayText(text: string): string {
  const flat = collapseWhitespace(text);
  if (flat.length <= MAX_SENTENCE_CHARS) return flat;
  const cut = flat.lastIndexOf(' ', MAX_SENTENCE_CHARS);
  return `${flat.slice(0, cut > 0 ? cut : MAX_SENTENCE_CHARS)} …`;
}
