import { EXTRACTIVE_LABEL } from './messages.ts';
import { candidatesOf, posesAsCitation, namesApi, quotableCode, scoreCandidates, type Candidate } from './extractive-candidates.ts';
import { collapseWhitespace, type SentenceSpan, type TextRange } from './text/sentences.ts';
import { isSmallWorkspace, mostlyUnheld, termWeights } from './text/term-weights.ts';
import { searchTextOf } from './text/doc-vocabulary.ts';
import { termSet, terms } from './text/terms.ts';
import { asksForMeans, asksForValue, statesDefault } from './text/question-kind.ts';
import { codeNamesOf } from './text/code-names.ts';
import { namedEntry } from './text/code-entries.ts';
import type { Answerer, AnswerOutput, AnswerRequest } from './types.ts';
import { orderForReading } from './quote-order.ts';
import type { Quote } from './quote.ts';

export const EXTRACTIVE_MODEL = 'extractive-v2';

export interface ExtractiveOptions {
  /** Quotations in the answer at most: a sentence with what it needs around it (default 4). */
  maxSentences?: number;
  /** Characters of quoted text at most, before the label and the markers (default 900). */
  maxChars?: number;
}

const MAX_SENTENCE_CHARS = 500;
/** A sentence and those continuing it are quoted together up to this length, and this many. */
const WINDOW_CHARS = 500;
const MAX_CONTINUATIONS = 2;
const MAX_LIST_ITEMS = 4;
/**
 * A candidate loses this share of its score when every word it matches is quoted already, in
 * proportion to those that are. At half, a sentence that repeats the first quotation's words and
 * adds the one the question is about ("…a `UNIQUE` constraint…, but this is not automatic." under
 * Serial Types) lost to sentences that shared less. Chosen on the tune halves
 * (docs/retrieval-and-evaluation.md).
 */
const COVERED_DISCOUNT = 0.3;
const FENCE_LINE = /^[ \t]*(?:```|~~~)/m;
// A sentence that ends by announcing what follows it: a list, code, a value ("…like this:").
const ANNOUNCES = /:\s*$/;
// A sentence that asks a question: on a page, a FAQ's entry, answered by what follows it.
const ASKS = /\?["'”’)\]]*\s*$/;
// A line that only states a default: "Default: `5`", "Default: `pino.destination(1)` (STDOUT)".
const VALUE_LINE = /^\W*defaults?\s*:[^.!?]{0,60}$/iu;
/** A quotation shorter than this is a value or a title rather than a statement. */
const SHORT_CHARS = 60;
// A sentence that opens with one of these stands for something said before it.
// Also a few words in, after a condition's opening: "If ensure_ascii is false, these characters
// will be output as-is." stands for the characters the sentence before it named.
const POINTS_BACK = /^\W*(?:(?:if|when|otherwise|unless|in|for|with|without|by)\b[^,.;:]{0,60},\s*)?(?:this|these|that|those|it|they|such)\b/iu;
// Words by which a sentence leans on the one before it ("In the default configuration it must
// be shorter than 8000 bytes."): English pronouns, determiners and connectives, nothing topical.
const REFERS_BACK = /^\W*(?:\S+\s+){0,5}?(?:it|its|this|these|those|that|they|them|their|such|so|thus|then|otherwise|however|also|instead|both|either|neither|each|here|there)\b/iu;

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
  // The documentation's words for the asker's phrases count as the question's: "Recursively copy
  // an entire directory tree" answers "How do I duplicate a folder with its subfolders?".
  const wanted = termSet(searchTextOf(question));
  const all = candidatesOf(passages);
  if (all.length === 0) return [];
  const passageTexts = passages.map((p) => `${p.heading ?? ''} ${p.content}`);
  const weights = termWeights(wanted, all.map((c) => c.span.text), passageTexts, request.termStats);
  // In a page or a few, when the passages miss most of the question's informative words, a label
  // that is only one of its common words is where the page defines that word.
  const labelsDefine = isSmallWorkspace(request.termStats) && mostlyUnheld([...wanted].filter((t) => !weights.generic(t)), passageTexts, (t) => weights.weight(t));
  scoreCandidates(all, request.question, wanted, weights, { labelsDefine });

  // Once any sentence shares an informative term with the question, a lower passage's sentences
  // that share only generic ones ("maximum", "default") are about something else. The best
  // passage was ranked first for the question as a whole, so its sentences need no such proof,
  // nor does an API's description that opens with the action asked for ("Insert x in a in
  // sorted order." for "How do I insert into a list while keeping it in order?").
  const asked: Asked = { value: asksForValue(question), means: asksForMeans(question), codeNames: codeNamesOf(question) };
  const informativeSeen = all.some((c) => c.informative.size > 0);
  const pool = all.filter((c) => c.score > 0 && (!informativeSeen || (c.rank === 0 && !c.offSection) || c.informative.size > 0 || c.definesMeans || c.definesLabel));

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
    const quote = quoteOf(chosen, wanted, shown, picked.length === 0, asked);
    // "A middleware can be written as a function that looks like this:" without the code it
    // announces (too long to show, or past the passage's end) leaves the reader at a colon.
    if (quote.dangles) continue;
    if (picked.length > 0 && chars + quote.chars > maxChars) continue;
    // Its label or lead-in may hold what reads as a citation, though the sentence does not.
    if (quote.ranges.some((r) => posesAsCitation(r.text))) continue;
    // The same words from another passage (a page that repeats itself, overlapping passages) would
    // spend a quotation on nothing new.
    if (quotedAlready(picked, quote)) continue;
    picked.push(quote);
    chars += quote.chars;
    for (const r of quote.ranges) shown.push({ n: chosen.passage.n, range: r });
    for (const t of chosen.matched) covered.add(t);
    perPassage.set(chosen.passage.n, (perPassage.get(chosen.passage.n) ?? 0) + 1);
    const carried = quote.wantsValue ? valueInContinuation(chosen, all, shown) : undefined;
    if (carried && chars + carried.chars <= maxChars) {
      picked.push(carried);
      chars += carried.chars;
      shown.push({ n: carried.candidate.passage.n, range: carried.candidate.span });
    }
  }
  // Nothing shares a term with the question (retrieved on meaning alone): quote the opening of
  // the best passage rather than nothing; the label already says these are quotations.
  if (picked.length === 0) {
    const opening = all.find((c) => c.passage.n === passages[0]?.n) ?? all[0];
    if (opening) picked.push({ candidate: opening, ranges: [opening.span], code: null, chars: opening.span.text.length });
  }
  return orderForReading(picked);
}

/** What the question asks for, as the quotations read it. */
interface Asked {
  value: boolean;
  means: boolean;
  /** The names it writes as code ("-i", "fast_mode"). */
  codeNames: readonly string[];
}

/**
 * The sentence with what it cannot be read without: a list item's lead-in or a table row's
 * header; the heading or label above it when the question names that section; and the sentence
 * that continues it in the same paragraph ("In the default configuration it must be shorter
 * than 8000 bytes."), joined on one line since they are one run of the passage's text.
 */
function quoteOf(c: Candidate, wanted: Set<string>, shown: readonly { n: number; range: TextRange }[], first: boolean, asked: Asked): Quote {
  const { value: asksValue, means: asksMeans } = asked;
  const ranges: TextRange[] = [];
  const n = c.passage.n;
  const lead = c.span.lead;
  const label = c.span.label;
  if (lead && !isShown(shown, n, lead)) ranges.push(lead);
  // A label surely describes only the paragraph right under it: the page's text does not say where
  // its description ends ("exception copy.Error" › "Raised for module specific errors.", then the
  // module's own "The difference between shallow and deep copying…"), so a later paragraph is
  // quoted under it only when the question names it.
  // For a how-to question, the API a section's first sentences describe is the answer itself
  // ("math.isclose(a, b, …)" above "Whether or not two values are considered close is determined…").
  const api = asksMeans && label !== null && c.sectionPosition < 3 && namesApi(label.text);
  const withLabel = !lead && label !== null && ((c.besideLabel && (c.sectionPosition <= 1 || [...termSet(label.text)].some((t) => c.informative.has(t)))) || c.inNamedSection || api) && !isShown(shown, n, label);
  if (withLabel && label) ranges.push(label);
  // The sentences that continue it, while each leans on the one before or stays on its terms.
  // Past the end of its paragraph only when what is quoted so far cannot stand alone: it
  // announces what follows ("the following steps happen in order:") or is a bare value line
  // ("Default: `true`") whose section goes on to say what it means; or, under a name the
  // question writes, is a line the page writes under other names too.
  let end = c.span;
  // The window may start before the sentence, inside its paragraph: a sentence that opens by
  // pointing back ("This SQL-standard function provides capabilities similar to `NVL`…") comes
  // with the sentence before it, which says what it points at; and under a label it quotes, the
  // label's opening sentences come with it ("str.isdigit()" › "Digits include decimal
  // characters…" says nothing of what the method returns). Each list item of the window is quoted
  // on its own line, as the page shows it.
  // A value line that ends its paragraph or list item ("**statusCodes** `number[]` (optional) -
  // Array of HTTP status codes to retry. Default: `[429, 500, 502, 503, 504]`") is the value of
  // what the start of that block names: quoted from there.
  const endsBlockValue = VALUE_LINE.test(c.span.text) && c.siblings[c.position - 1]?.block === c.span.block;
  let from = c.span;
  for (let i = c.position - 1; i >= 0; i--) {
    const before = c.siblings[i];
    const joins =
      before !== undefined && (before.kind === 'sentence' || endsBlockValue) && before.block === c.span.block && before.label === c.span.label && c.span.end - before.start <= WINDOW_CHARS && !isShown(shown, n, before);
    if (!joins || !before) break;
    const opensLabel = withLabel && c.sectionPosition - (c.position - i) >= 0 && c.sectionPosition <= 2;
    if (!opensLabel && !endsBlockValue && !(i === c.position - 1 && c.span.kind === 'sentence' && POINTS_BACK.test(c.span.text))) break;
    from = before;
  }
  // A section that opens with its value line ("depthLimit" › "Default: `5`", then "Maximum nesting
  // depth used by…") states the value above the first sentence of its description: quoted with it.
  const opening = c.siblings[c.position - 1];
  if (
    from === c.span &&
    opening?.kind === 'sentence' &&
    opening.label === c.span.label &&
    opening.block === c.span.block - 1 &&
    c.siblings.findIndex((s) => s.label === c.span.label) === c.position - 1 &&
    VALUE_LINE.test(opening.text) &&
    !isShown(shown, n, opening)
  ) {
    from = opening;
  }
  const cut = (next: SentenceSpan) => {
    if (next.kind !== 'item' || next.block === end.block) return;
    ranges.push(rangeOf(c.passage.content, from, end));
    from = next;
  };
  // A lead-in that announces a list goes on through its items ("The difference between shallow
  // and deep copying is only relevant for compound objects: - A shallow copy … - A deep copy …").
  const announcesList = ANNOUNCES.test(c.span.text) && c.siblings[c.position + 1]?.lead === c.span;
  const last = c.position + (announcesList || (c.inNamedSection && c.span.kind === 'item') ? MAX_LIST_ITEMS : MAX_CONTINUATIONS);
  for (let i = c.position + 1; i <= last; i++) {
    // Code ends the window: it is shown as a block of its own, never run into a quoted line.
    if (end.code) break;
    const next = c.siblings[i];
    if (announcesList && next !== undefined && next.lead === c.span) {
      if (next.end - c.span.start > WINDOW_CHARS || isShown(shown, n, next) || posesAsCitation(next.text)) break;
      cut(next);
      end = next;
      continue;
    }
    if (next === undefined || next.label !== c.span.label || next.end - c.span.start > WINDOW_CHARS) break;
    if (FENCE_LINE.test(c.passage.content.slice(end.end, next.start))) break;
    if (isShown(shown, n, next) || posesAsCitation(next.text)) break;
    const sameBlock = next.block === end.block;
    const announces = ANNOUNCES.test(end.text);
    const bareValue = !/[.!?]["'”’)\]]*\s*$/.test(end.text) && end.end - c.span.start < SHORT_CHARS && end.kind !== 'row' && next.kind === 'sentence';
    // A question the page asks itself ("What does `http.postBuffer` really do?", a FAQ's entry) is
    // answered by what follows it.
    const poses = ASKS.test(end.text) && next.kind === 'sentence';
    const incomplete = announces || bareValue || poses;
    const leans = REFERS_BACK.test(next.text) || terms(next.text).some((t) => wanted.has(t) || c.ownTerms.has(t));
    // The items of a list under the heading the question names are its values or steps, read
    // together ("trustProxy" › `true/false`: …, `string`: …, `Array<string>`: …).
    const listGoesOn = c.inNamedSection && end.kind === 'item' && next.kind === 'item' && next.block === end.block + 1 && next.lead === c.span.lead;
    // The best quotation also takes the paragraph after it when that one goes on about the same
    // thing: the question's second half ("…and what should I use instead?") is often answered there.
    const goesOn = first && next.kind === 'sentence' && end.kind === 'sentence' && next.block === end.block + 1 && terms(next.text).some((t) => c.ownTerms.has(t) && !wanted.has(t));
    // Under a label the question writes as a name (an option, a setting, a signature), a paragraph
    // the page writes under other labels too says nothing of this one: "-k, --keep-index" › "This
    // option is only valid for `push` and `save` commands." goes on to what it does, "All changes
    // already added to the index are left intact."
    const describesName = c.underNamedName && c.sectionPosition <= 1 && next.kind === 'sentence' && next.block === end.block + 1 && writtenUnderOthers(c, end);
    if (!(sameBlock ? leans || incomplete : incomplete || listGoesOn || goesOn || describesName)) break;
    cut(next);
    end = next;
  }
  ranges.push(rangeOf(c.passage.content, from, end));
  // A quotation that opens a setting's description, for a question asking for a value: the value
  // is stated further down the same label's text ("work_mem" › "Sets the base maximum amount of
  // memory…", then "The default value is four megabytes (4MB)."), and is quoted with it on a line
  // of its own.
  let wantsValue = false;
  if (label && (first || ranges[0] === label || (c.besideLabel && c.sectionPosition <= 1)) && asksValue && !end.code) {
    const after = c.siblings.indexOf(end);
    const stated = c.siblings.find((s, i) => i > after && s.label === label && s.kind === 'sentence' && statesDefault(s.text) && !isShown(shown, n, s));
    if (stated && stated.end - c.span.start <= 3 * WINDOW_CHARS) ranges.push(stated);
    // Not stated here, and the setting's text runs on to the passage's end: the next passage may say it.
    else if (!stated && c.siblings.at(-1)?.label === label) wantsValue = true;
  }
  // "Using default factory functions is a way to … for fields:" is answered by the code after it;
  // so is a how-to question by the example right under the sentence that says how ("PowerShell
  // uses different syntax to set environment variables." › `$env:DEBUG = "*,-not_this"`).
  const below = end.code ?? (asksMeans ? end.codeBelow : null);
  // Too long to show whole (a command's help text), it still shows the entry of the option the
  // question writes ("-i --increment [<level>]" and its description, for "the -i option").
  const entry = below && !quotableCode(below) ? namedEntry(below.text, asked.codeNames) : null;
  const code = below && (quotableCode(below) ? below : entry !== null ? { ...below, text: entry } : null);
  const chars = ranges.reduce((sum, r) => sum + displayText(r.text).length, 0) + (code?.text.length ?? 0);
  // One sentence announcing what is not shown: code too long to show (with no entry the question
  // names), or nothing, as its passage ends at the colon. A list it announces is quoted with it,
  // and a label after it starts what it announces.
  const dangles = from === c.span && end === c.span && code === null && ANNOUNCES.test(c.span.text) && (c.span.code !== null || c.siblings.at(-1) === c.span);
  return { candidate: c, ranges, code, chars, wantsValue, dangles };
}

/** The page writes this sentence, word for word, under another label of the passage too. */
function writtenUnderOthers(c: Candidate, span: SentenceSpan): boolean {
  const text = collapseWhitespace(span.text);
  return c.siblings.some((s) => s.label !== null && s.label !== span.label && collapseWhitespace(s.text) === text);
}

/**
 * A long setting's description goes on in the next passage of the same page, which starts with the
 * sentences this one ends with (the chunker's overlap) and, having no label of its own before it,
 * does not name the setting: "The default value for this parameter is `"$user", public`." follows
 * `search_path` (`string`) that way. That passage's sentence stating a default, before any other
 * label begins, is quoted after the setting's description, with that passage's citation.
 */
function valueInContinuation(c: Candidate, all: readonly Candidate[], shown: readonly { n: number; range: TextRange }[]): Quote | undefined {
  const tail = c.siblings.at(-1);
  if (!tail) return undefined;
  const next = all.find((o) => o.passage !== c.passage && o.passage.title === c.passage.title && o.position === 0 && collapseWhitespace(o.span.text) === collapseWhitespace(tail.text));
  if (!next) return undefined;
  for (const span of next.siblings) {
    if (span.label !== null) return undefined;
    if (span.kind === 'sentence' && statesDefault(span.text) && !isShown(shown, next.passage.n, span)) {
      return { candidate: { ...next, span, position: next.siblings.indexOf(span) }, ranges: [span], code: null, chars: displayText(span.text).length };
    }
  }
  return undefined;
}

/**
 * Its own words are quoted already. A label or lead-in above a statement does not make it news:
 * the json page repeats "If ensure_ascii is false, these characters will be output as-is." under
 * `json.dump(…)` and under `JSONEncoder`, and the second, under its label, was quoted again. A
 * short line is another matter: "Default is `False`." under `Field.blank` is not the one under
 * `Field.null`, and is read whole, with its label.
 * Nor is a longer window news when the sentence it was chosen for is on screen under the same
 * label: pages that include one text (git's merge strategies, on the merge, pull and rebase pages)
 * gave "ort" › "This is the default merge strategy…" twice, the second time with one more sentence.
 * Under another label the same sentence says something else ("Initially, this is the active
 * console screen buffer." under `STD_OUTPUT_HANDLE` and under `STD_ERROR_HANDLE`).
 */
function quotedAlready(picked: readonly Quote[], quote: Quote): boolean {
  const text = (ranges: readonly TextRange[]) => collapseWhitespace(ranges.map((r) => r.text).join(' '));
  const { label, lead } = quote.candidate.span;
  const body = text(quote.ranges.filter((r) => r !== label && r !== lead));
  const own = body.length >= SHORT_CHARS ? body : text(quote.ranges);
  const sentence = collapseWhitespace(quote.candidate.span.text);
  const labelText = collapseWhitespace(label?.text ?? '');
  return picked.some((p) => {
    const quoted = text(p.ranges);
    if (quoted.includes(own)) return true;
    return sentence.length >= SHORT_CHARS && collapseWhitespace(p.candidate.span.label?.text ?? '') === labelText && quoted.includes(sentence);
  });
}

function rangeOf(content: string, from: SentenceSpan, to: SentenceSpan): TextRange {
  return from === to ? from : { start: from.start, end: to.end, text: content.slice(from.start, to.end) };
}

function isShown(shown: readonly { n: number; range: TextRange }[], n: number, range: TextRange): boolean {
  return shown.some((s) => s.n === n && s.range.start <= range.start && range.end <= s.range.end);
}

/** 1 for a sentence whose matched terms are all new, down to 1 − COVERED_DISCOUNT when all are already covered. */
function novelty(c: Candidate, covered: Set<string>): number {
  if (c.matched.size === 0) return 1;
  let seen = 0;
  for (const t of c.matched) if (covered.has(t)) seen++;
  return 1 - COVERED_DISCOUNT * (seen / c.matched.size);
}

/** Joins hard-wrapped lines; a very long sentence is cut at a word and marked with an ellipsis. */
function displayText(text: string): string {
  const flat = collapseWhitespace(text);
  if (flat.length <= MAX_SENTENCE_CHARS) return flat;
  const cut = flat.lastIndexOf(' ', MAX_SENTENCE_CHARS);
  return `${flat.slice(0, cut > 0 ? cut : MAX_SENTENCE_CHARS)} …`;
}
