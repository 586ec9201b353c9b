import { sentenceSpans, type SentenceSpan, type TextRange } from './text/sentences.ts';
import type { TermWeights } from './text/term-weights.ts';
import { normalise, termOf, termSet, terms } from './text/terms.ts';
import { namesIn } from './coverage-gate.ts';
import { asksForMeans, leadingTerm } from './text/question-kind.ts';
import { escapeRegExp, literalsHeldBy, literalsOf } from './text/literals.ts';
import { plainTermLineTerm } from './text/term-lines.ts';
import type { Passage } from './types.ts';

/** A sentence of a retrieved passage the extractive answerer may quote, with how well it answers. */
export interface Candidate {
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
  /** That section is a name (an option, a setting, a function's signature) and the question writes it. */
  underNamedName: boolean;
  /** The matched terms that are not generic. */
  informative: Set<string>;
  /** An API's description that opens with the action a how-to question asks for. */
  definesMeans: boolean;
  /**
   * In a page or a few (labelsDefine), one of the first sentences under a label that is only a
   * word of the question, in code ticks ("`payload`"): where the page defines a word it uses
   * everywhere. It may be quoted though that word is generic, and lets no other sentence in.
   */
  definesLabel: boolean;
  /** The sentence writes every value the question writes ("~1.2.3"), and the question writes one. */
  writesAskedValues: boolean;
  score: number;
}

// BM25 applied to sentences instead of documents. A sentence is short, so a word it says again
// is worth less than another of the question's words: k1 below the usual 1.2 saturates sooner.
const K1 = 0.8;
const B = 0.75;
/** A question term found in the sentence's headings counts this much of a term in the sentence. */
const HEADING_WEIGHT = 0.6;
/** How many sentences under a named heading or label count as its definition. */
const DEFINING_SENTENCES = 3;
/**
 * A sentence without the rarest term the question shares with the passages (its topic: "jsonb",
 * not "key" or "value") counts this much: "json keeps every key" is not an answer about jsonb.
 */
const OFF_TOPIC = 0.5;
/**
 * For a question asking how to do something, what an API's description counts when it opens with
 * the action asked for: "Insert x in a in sorted order." under `bisect.insort_left(a, x, …)`
 * answers "How do I insert into a list while keeping it in order?", where the module's overview
 * only restates the question.
 */
const MEANS_DEFINITION = 1.6;
/** Words that deny what the rest of the sentence says (stop words to term matching). */
const NEGATION = /\b(?:not|no|never|cannot|neither|nor|none)\b|n['’]t\b/iu;
const CODE_SPAN = /`[^`\n]*`/g;
const LONE_DIGIT = /(?<![\p{L}\p{N}_])\p{N}(?![\p{L}\p{N}_])/gu;
const LONE_CHARACTER = /(?<![\p{L}\p{N}_])[\p{L}\p{N}](?![\p{L}\p{N}_])/gu;
// A setting's or option's name as code writes it: camelCase ("ignoreTrailingSlash") or snake_case
// ("work_mem"), not a product's name ("PostgreSQL").
const SETTING_NAME = /^\p{Ll}[\p{L}\p{N}]*\p{Lu}|^\p{L}[\p{L}\p{N}]*_[\p{L}\p{N}_]*$/u;

/** A code block an announcing sentence is quoted with: its fences included, at most this long. */
const MAX_CODE_LINES = 10;
const MAX_CODE_CHARS = 400;

/** Is this code block short enough to be shown under the sentence quoted above it? */
export function quotableCode(code: TextRange): boolean {
  return code.text.split('\n').length <= MAX_CODE_LINES && code.text.length <= MAX_CODE_CHARS;
}

/** One-character values too short to be terms: a digit ("Default: `5`"), or a letter written as code (`-V`, `x`). */
function shortValues(text: string): string[] {
  const code = (text.match(CODE_SPAN) ?? []).join(' ');
  return [...text.matchAll(LONE_DIGIT), ...code.matchAll(LONE_CHARACTER)].map((m) => m[0]);
}

// A bracketed number a reader would take for one of the answer's own citations ("Refunds are
// instant [2]."): a planted "[2]" would claim another source's support. An index or a literal is
// text ("argv[0]", "json_set('[0,1,2]', …)"), and the citation check leaves quoted lines alone.
const POSES_AS_CITATION = /(?<![\p{L}\p{N}_'"`’)\]])\[\s*[1-9]\d*(?:\s*[,–-]\s*[1-9]\d*)*\s*\]/u;

/** Would the reader take a bracketed number of this text, outside code, for a citation? */
export function posesAsCitation(text: string): boolean {
  return POSES_AS_CITATION.test(text.replace(CODE_SPAN, ''));
}

/** Every sentence of the passages that could be quoted, with its context; scored by scoreCandidates. */
export function candidatesOf(passages: readonly Passage[]): Candidate[] {
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
      // "Or `async/await`:" introduces a code block that an extractive answer cannot show.
      if (span.text.endsWith(':') && terms(span.text).length < 3) continue;
      const labelText = span.label?.text ?? '';
      const context = `${passage.title ?? ''} ${passage.heading ?? ''} ${span.heading ?? ''} ${labelText} ${span.lead?.text ?? ''}`;
      const sectionTerms = termSet(`${span.heading ?? ''} ${labelText}`);
      const ownSectionText = span.label ? labelText : (passage.heading?.split(' › ').at(-1) ?? passage.title ?? '');
      const ownSection = termSet(ownSectionText);
      out.push({
        passage, rank, span, siblings: spans, position, sectionPosition, besideLabel: span.label !== null && firstBlock.get(span.label) === span.block, context, sectionTerms, sectionText: `${span.heading ?? ''} ${labelText}`, ownSection, ownSectionText, ownTerms: termSet(span.text),
        matched: new Set(), informative: new Set(), definesMeans: false, definesLabel: false, writesAskedValues: false, offSection: false, inNamedSection: false, underNamedName: false, score: 0,
      });
    }
  }
  return out;
}

/** BM25 over sentences, with the headings, the named section and the question's topic taken into account. */
export function scoreCandidates(all: Candidate[], question: string, wanted: Set<string>, weights: TermWeights, options: { labelsDefine?: boolean } = {}): void {
  const termLists = all.map((c) => terms(c.span.text));
  const avgLength = termLists.reduce((sum, l) => sum + l.length, 0) / all.length || 1;
  // When the question names a section ("connectionTimeout"), sentences of other sections of the
  // same passages ("keepAliveTimeout: Default 72000") are about something else, and so are those
  // right under another label in any passage ("hash_mem_multiplier" › "The default value is 2.0,
  // … the usual work_mem", for "the default value of work_mem").
  // Named, not merely touched: "Is http.server recommended?" shares two words with the label
  // "class http.server.HTTPServer(server_address, …)" yet asks about the module, not that class.
  const namesSection = (c: Candidate) => [...c.sectionTerms].some((t) => wanted.has(t) && !weights.generic(t)) && namingOf(c.sectionText, c.sectionTerms, question, wanted) !== undefined;
  const focused = new Set(all.filter(namesSection).map((c) => c.passage.n));

  const contextTerms = all.map((c) => termSet(c.context));
  const present = new Set<string>();
  for (const [i, list] of termLists.entries()) {
    for (const t of [...list, ...(contextTerms[i] ?? [])]) if (wanted.has(t) && !weights.generic(t)) present.add(t);
  }
  // The topic is the one rarest term; a tie names no topic.
  const ranked = [...present].sort((x, y) => weights.weight(y) - weights.weight(x));
  const anchor = ranked.length > 1 && weights.weight(ranked[0] ?? '') > weights.weight(ranked[1] ?? '') ? ranked[0] : undefined;
  const rarest = Math.max(0, ...[...wanted].map((t) => weights.weight(t)));
  const forMeans = asksForMeans(question);
  const questionNegates = NEGATION.test(question);
  const questionValues = new Set(shortValues(question));
  const literals = literalsOf(question);
  const heldBy = literalsHeldBy(literals);
  const telling = literals.filter((literal) => !weights.generic(literal));
  // "3.11" leaves the term "11", which a page title ("Python 3.11.2 documentation") holds too.
  const literalParts = new Set(literals.flatMap((literal) => terms(literal)));
  // A name the question writes as code ("ignoreTrailingSlash") says what it is about however many
  // passages mention it: in a saved README a setting is named on three passages of thirty, which
  // makes it generic by count, and a lower passage's sentence naming two of them together ("Note
  // that when `ignoreTrailingSlash` and `ignoreDuplicateSlashes` are both set…") is not off topic.
  const writtenNames = new Set([...question.matchAll(/[\p{L}\p{N}_]+/gu)].map((m) => m[0]).filter((word) => SETTING_NAME.test(word)).map((word) => termOf(normalise(word))));

  for (const [i, c] of all.entries()) {
    const list = termLists[i] ?? [];
    c.offSection = (focused.has(c.passage.n) || (focused.size > 0 && c.besideLabel)) && !namesSection(c);
    const tf = new Map<string, number>();
    for (const t of list) if (wanted.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
    let relevance = 0;
    for (const [t, f] of tf) {
      relevance += (weights.weight(t) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * list.length) / avgLength));
      c.matched.add(t);
    }
    // A value the question writes out ("What does the tilde range ~1.2.3 expand to?") is found
    // written the same way in the sentence that answers ("`~1.2.3` := `>=1.2.3 <1.3.0-0`"), and
    // nowhere else in words: it weighs as a word of that rarity does. Only where the sentence or
    // its headings hold another word of the question, a telling one or one of its own section's
    // name ("Tilde Ranges"): "New in version 3.11." under `is_valid()` on a page titled "Python
    // 3.11.2 documentation" is not about "Which identifiers are soft keywords in Python 3.11?".
    // A sentence that announces a short code block is quoted with it, and the block may be where
    // the value is written ("Trailing slashes can be ignored by supplying the `ignoreTrailingSlash`
    // option:" over `// maps "/foo/" and "/foo" to handler`).
    const code = literals.length > 0 && c.span.code && quotableCode(c.span.code) ? c.span.code.text : '';
    const written = heldBy(`${c.span.text}\n${code}`);
    const onTopic = written.length > 0 && [...tf.keys(), ...(contextTerms[i] ?? []), ...terms(code)].some((t) => wanted.has(t) && !literalParts.has(t) && (!weights.generic(t) || c.ownSection.has(t)));
    const held = onTopic ? written : [];
    for (const literal of held) {
      relevance += weights.weight(literal);
      c.matched.add(literal);
    }
    c.writesAskedValues = telling.length > 0 && telling.every((literal) => held.includes(literal));
    // "Default: 1048576 (1MiB)" answers "default bodyLimit?" because it sits under "bodyLimit".
    // A sentence that shares no word with the question counts only inside a section the question
    // names: at least half of that section heading's terms are in the question.
    const naming = namingOf(c.ownSectionText, c.ownSection, question, wanted);
    const ownNamed = naming !== undefined;
    c.inNamedSection = ownNamed;
    c.underNamedName = naming === 'name';
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
    // An option the question writes out ("the -k option", "--follow") has no word to weigh, or
    // only words every page uses: what defines it counts as the question's rarest word does, and
    // its words are telling there.
    const definesCode = defines && namedAsCode(c.ownSectionText, question);
    if (definesCode && ![...c.ownSection].some((t) => wanted.has(t) && !weights.generic(t))) relevance += rarest;
    for (const t of c.matched) if (!weights.generic(t) || writtenNames.has(t) || (definesCode && c.ownSection.has(t))) c.informative.add(t);
    const labelTerm = options.labelsDefine && defines && c.span.label ? plainTermLineTerm(c.span.label.text) : undefined;
    c.definesLabel = labelTerm !== undefined && c.matched.has(labelTerm);
    // A sentence made only of the question's own words ("FST_ERR_X" in a table of contents)
    // tells the asker nothing new.
    // A definition that restates the question ("The final path component, without its suffix")
    // answers it with its label ("PurePath.stem"), which is quoted with it.
    const labelNovel = c.span.label && c.sectionPosition <= 1 ? terms(c.span.label.text).filter((t) => !wanted.has(t)).length : 0;
    // A negation is news even in the question's own words: "Sequence data is not replicated."
    // answers "Is sequence data replicated by logical replication?".
    const negationNovel = !questionNegates && NEGATION.test(c.span.text) ? 1 : 0;
    // A one-character value is news too, though too short to be a term: "Default: `5`", "The
    // default option flags are `-V` and `--version`."
    const valueNovel = shortValues(c.span.text).some((v) => !questionValues.has(v)) ? 1 : 0;
    const novel = list.filter((t) => !wanted.has(t)).length + labelNovel + negationNovel + valueNovel;
    if (novel === 0 && list.length > 0) continue;
    c.definesMeans = forMeans && definesApi(c) && wanted.has(leadingTerm(c.span.text) ?? '');
    // A sentence that holds every word of a question of three or more ("Does SQLite support FOR
    // EACH STATEMENT triggers?" › "At this time SQLite supports only FOR EACH ROW triggers, not FOR
    // EACH STATEMENT triggers.") is as much about it wherever it sits in its section: it keeps the
    // weight of a section's first sentences. Of one or two words, holding them all says less
    // (chosen on the tune halves, docs/retrieval-and-evaluation.md).
    const holdsEveryWord = wanted.size >= 3 && [...wanted].every((t) => tf.has(t));
    c.score =
      relevance *
      Math.min(1, (novel + 2) / 4) *
      (c.offSection ? 0.6 : 1) *
      (anchor !== undefined && !c.matched.has(anchor) ? OFF_TOPIC : 1) *
      (1 / (1 + 0.1 * c.rank)) *
      (holdsEveryWord ? 1 : 1 - 0.04 * Math.min(c.sectionPosition, 10)) *
      (c.definesMeans ? MEANS_DEFINITION : 1);
  }
}

/** The first sentence under a label that names something (a signature such as `shlex.split(s, …)`). */
function definesApi(c: Candidate): boolean {
  return c.besideLabel && c.sectionPosition === 0 && c.span.label !== null && namesApi(c.span.label.text);
}

/**
 * A label that opens with what it describes: a signature (`math.isclose(a, b, …)`,
 * `@unittest.skipIf(condition, reason)`), an option (`-j, --jobs`), a setting (`work_mem`
 * (`integer`)). Not a line that only holds a code-like word ("(NIST SP-800-106 …)").
 */
export function namesApi(label: string): boolean {
  const text = label.replace(/[`*@]/g, '').trim();
  const first = /^[\p{L}_][\p{L}\p{N}_.]*/u.exec(text)?.[0] ?? '';
  return SIGNATURE.test(text) || text.startsWith('-') || isIdentifier(first);
}

/**
 * Does the question name this heading or label? One that names something ("copy.deepcopy(x[,
 * memo])", "bodyLimit") is named only by that name as written: "deep copy" names no function,
 * and "http.server" is not the class "http.server.HTTPServer". Other headings are named when
 * the question holds at least half of their terms. Says how: by the name it is ('name'), or by
 * half its words ('words'); undefined when it is not named.
 */
function namingOf(text: string, section: Set<string>, question: string, wanted: Set<string>): 'name' | 'words' | undefined {
  if (namedAsCode(text, question)) return 'name';
  const ids = namesIn(text).filter(isIdentifier);
  if (ids.length > 0) {
    const asked = normalise(question);
    // "ArgumentParser.add_argument(…)" is also named by "add_argument", a name on its own.
    const forms = ids.flatMap((id) => {
      const parts = id.split('.');
      return parts.map((_, i) => parts.slice(i).join('.')).filter((f, i) => i === 0 || isIdentifier(f));
    });
    return forms.some((f) => new RegExp(`(?<![\\p{L}\\p{N}_.])${escapeRegExp(normalise(f))}(?![\\p{L}\\p{N}_]|\\.[\\p{L}\\p{N}_])`, 'u').test(asked)) ? 'name' : undefined;
  }
  return namedByTerms(section, wanted) ? 'words' : undefined;
}

// A signature's name ("quantize(exp, rounding=None, context=None)", "classmethod date.today()")
// and a command-line option ("-k", "--jobs=njobs", "-b, --buffer").
const SIGNATURE = /^\s*(?:(?:class|exception|classmethod|staticmethod|abstractmethod|async|method|function)\s+)*([\p{L}_][\p{L}\p{N}_.]*)\s*\(/u;
const OPTION = /(?<![\p{L}\p{N}_-])--?[\p{L}\p{N}][\p{L}\p{N}-]*/gu;

/**
 * Does the question name this label the way code is written? A signature by its name written as a
 * call or a member ("What does Decimal.quantize() do?" names `quantize(exp, …)`), even when that
 * name is a plain word; an option by itself ("the -k option" names `-k`). A plain word written as
 * prose ("deep copy") names nothing: it is what namingOf weighs next.
 */
function namedAsCode(text: string, question: string): boolean {
  const asked = normalise(question);
  const label = text.replace(/[`*]/g, '');
  const name = SIGNATURE.exec(label)?.[1];
  if (name) {
    const last = normalise(name).split('.').at(-1) ?? '';
    if (last.length > 1 && new RegExp(`(?:\\.|\`)${escapeRegExp(last)}\\b|\\b${escapeRegExp(last)}\\s*\\(`, 'u').test(asked)) return true;
  }
  const options = label.trimStart().startsWith('-') ? (normalise(label).match(OPTION) ?? []) : [];
  return options.some((option) => new RegExp(`(?<![\\p{L}\\p{N}_-])${escapeRegExp(option)}(?![\\p{L}\\p{N}_-])`, 'u').test(asked));
}

function isIdentifier(word: string): boolean {
  return /[_.\d]|\p{Ll}\p{Lu}/u.test(word);
}

function namedByTerms(section: Set<string>, wanted: Set<string>): boolean {
  let hits = 0;
  for (const t of section) if (wanted.has(t)) hits++;
  return hits > 0 && hits * 2 >= section.size;
}
