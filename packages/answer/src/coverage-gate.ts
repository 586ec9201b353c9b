import { normalise, STOPWORDS, termOf, termSet } from './text/terms.ts';
import { isEnglishWord } from './text/english-words.ts';
import { codeNamesOf, dottedNamesOf, letteredNamesOf, writesCodeName } from './text/code-names.ts';
import { askersWording } from './text/doc-vocabulary.ts';
import { asksAboutExistingName, namesAskersOwn } from './text/question-kind.ts';
import { escapeRegExp } from './text/literals.ts';
import { sentenceSpans } from './text/sentences.ts';
import { isValueWord } from './text/value-words.ts';
import { questionTokens, weighQuestion, type TermStats } from './text/term-weights.ts';
import type { Passage } from './types.ts';

/**
 * Below this many passages, everyday words ("long", "take") are missing from a workspace by
 * chance, and their absence says nothing about the question.
 */
const PLAIN_WORDS_MIN_PASSAGES = 200;
/**
 * Below this many (a few saved messages or a short page), most everyday words are missing, and
 * missing words decide only beside words common there. A saved README (25 to 400 passages) is
 * above it. Chosen on probes of one-page workspaces (docs/retrieval-and-evaluation.md).
 */
const FEW_PASSAGES = 20;
/**
 * Words in nothing saved that carry this share of the question's weight (each word weighed by its
 * rarity in the workspace) are what it is about ("lasagne" in "a good recipe for lasagne"),
 * unless one retrieved sentence holds at least `HELD_TOGETHER` of what is left. Chosen on the
 * tune halves of the eval sets (docs/retrieval-and-evaluation.md).
 */
const ABSENT_WEIGHT_SHARE = 0.4;
const HELD_TOGETHER = 0.5;
/**
 * Words in nothing saved that carry half the question beside a single informative word are its
 * subject whatever holds that word ("the boiling point of water at high altitude" beside a random
 * number "<= high"). Chosen on the tune halves (docs/retrieval-and-evaluation.md): 0.4 refused
 * nothing more there, and would refuse an asker's one odd word beside the one word a manual uses.
 */
const ALONE_ABSENT_SHARE = 0.5;
/**
 * A name in nothing saved that carries less than this share of a long question's weight, beside
 * words a retrieved sentence holds together, is where the asker is, not what they ask about ("…a
 * comma-separated file on Windows…", "On Linux, which environment variable…"). Chosen on the tune
 * halves of the eval sets asked page by page (docs/retrieval-and-evaluation.md).
 */
const ASIDE_SHARE = 0.25;
/** Words of the question besides such a name, at least: a short question is about each of its names. */
const ASIDE_MIN_WORDS = 5;
/** Words of the question besides the name that one retrieved sentence holding them shows it is answered. */
const ASIDE_HELD_WORDS = 3;

// A word as the asker wrote it, with the code-ish characters names are made of.
const WRITTEN_WORD = /[\p{L}\p{N}_][\p{L}\p{N}_.-]*[\p{L}\p{N}_]|[\p{L}\p{N}_]/gu;

/**
 * What a question asks about that nothing saved in the workspace contains, as the asker wrote
 * it; empty when the question can be answered from what is saved. Two cases, each enough:
 * - a name: a product, a setting, a function or an error code ("NOTIFY", "max_parallel_flux",
 *   "pathlib.Path.teleport") with a part that no live passage holds, or a word in no English
 *   dictionary that no live passage holds ("smtplib"); or a name written as code, a snake_case
 *   setting or a command-line option, that no live passage writes whole ("fast_mode", "--turbo"),
 *   though its words are saved ("fast mode" in prose), when the question asks what it is, does
 *   or is set to rather than naming the asker's own ("add a --dry-run option"); or a product the
 *   workspace names only in passing, in no retrieved passage beside what the question asks of it
 *   ("MySQL" in "the default port of MySQL", over a manual that mentions MySQL once);
 * - most of the question: at least half of its content words are in no live passage
 *   ("How long should sourdough bread proof before baking?"), and no retrieved sentence holds
 *   two of its other words together; in a small workspace (under 200 passages: one saved
 *   README), at least two such words, with at least 20 passages there or beside only words
 *   common there ("How do I make a creamy risotto?").
 * A user's own wording ("hangs", "enormous") is often absent from the docs that answer it, so
 * one such word among several is never enough. A word counts as absent only when the
 * workspace counts no passage holding it and no retrieved passage contains it as written
 * (PostgreSQL's stemming and ours could disagree); a word PostgreSQL drops as a stop word is
 * never absent, nor is a value ("March 31st", "10ms": the manual writes "2001-03-31").
 */
export function missingTerms(question: string, passages: readonly Passage[], stats: TermStats): string[] {
  if (stats.documents === 0) return [];
  const haystack = haystackOf(passages);
  // A word of a phrase the documentation's vocabulary knows as an asker's ("a scratch file that
  // disappears") is their wording for what the manual says otherwise ("temporary", "deleted"):
  // missing only when the manual's words are missing too (retrieval counted them).
  const wording = askersWording(question);
  const saidOtherwise = (word: string) => (wording.get(termOf(word)) ?? []).some((w) => (stats.frequencies.get(termOf(normalise(w))) ?? 0) > 0);
  // A word of a qualified name the workspace writes whole ("postbuffer" of "http.postBuffer") is
  // saved, though the index holds only the whole name.
  const savedWhole = dottedNamesOf(question).filter((name) => (stats.codeNames?.get(name) ?? 0) > 0);
  const inSavedName = (word: string) => savedWhole.some((name) => nameParts(name).includes(normalise(word)));
  const absent = (word: string) =>
    !isValueWord(word) && stats.frequencies.get(termOf(word)) === 0 && !startsWordIn(haystack, word) && !saidOtherwise(word) && !inSavedName(word);
  // The asker's own names ("my order_total column", "add a --dry-run option") are in no manual,
  // and say nothing of whether what the question asks is covered.
  const written = codeNamesOf(question);
  const owned = namesAskersOwn(question) ? written : [];
  const ownWords = new Set(owned.flatMap((name) => (name.startsWith('-') ? name.split('-').filter(Boolean) : [name])));
  const missing: string[] = [];
  const lettered = letteredNamesOf(question);
  // A name hyphenated beside one letter ("T-SQL") is written whole or not at all; not the asker's
  // own ("my X-Trace-Id header").
  const unwrittenWhole = (name: string) => lettered.includes(normalise(name)) && stats.codeNames?.get(normalise(name)) === 0 && !askersOwn(question, name);
  for (const name of namesIn(question)) {
    if (owned.some((o) => normalise(name).includes(o))) continue;
    if ((nameParts(name).some(absent) || unwrittenWhole(name)) && !startsWordIn(haystack, normalise(name)) && !missing.includes(name)) missing.push(name);
  }
  // One such name, in prose, as an aside to what the question asks: it is weighed with the words below.
  const [only] = missing;
  if (missing.length === 1 && only !== undefined && !unwrittenWhole(only) && namesAnAside(question, only, passages, stats)) missing.length = 0;
  // A setting or an option written as code is one name, though each of its words is saved
  // somewhere: "fast_mode" or "--turbo" that no passage writes is one the workspace does not have,
  // when the question asks what it is or does (not an own name, as above).
  const asked = asksAboutExistingName(question) ? written : [];
  for (const name of asked) {
    const unwritten = stats.codeNames?.get(name) === 0 && !passages.some((p) => writesCodeName(`${p.heading ?? ''} ${p.content}`, name));
    if (unwritten && !missing.some((m) => normalise(m).includes(name))) missing.push(writtenCodeName(question, name));
  }
  const words = questionTokens(question).map((t) => t.token).filter((w) => !ownWords.has(w));
  // A name written in lower case ("smtplib", "numpy") has no capital to show it: a word that is
  // in no dictionary and in nothing saved is one.
  const unnamed = words.filter((w) => /^\p{L}{3,}$/u.test(w) && absent(w) && !isEnglishWord(w) && !missing.some((m) => normalise(m).includes(w)));
  missing.push(...writtenForms(question, unnamed));
  missing.push(...namedInPassing(question, passages, stats).filter((name) => !missing.includes(name)));
  if (missing.length > 0) return missing;
  const gone = words.filter(absent);
  // Longest first: "Sauerteigbrot" says more about what is missing than "ich".
  const named = [...gone].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  if (gone.length === 0) return [];
  const mostlyGone = gone.length * 2 >= words.length;
  // Two of the question's other words in one retrieved sentence: what was found is about what it
  // asks, in other words than the asker's ("A server sometimes sends me gigantic bodies. How do I
  // cap how big a response can be?" lacks "sometimes", "gigantic", "cap" and "big", and a
  // sentence on the "response body" limit answers it).
  const heldTogether = () => mostHeldInOneSentence(passages, countOf(words.filter((w) => !gone.includes(w)))) >= 2;
  // In a small workspace (one saved README) everyday words are missing by chance ("How long do
  // refunds take?" beside four passages that never say "long" or "take"), so they decide only
  // when two or more are, and either everything else the question says is common there ("How do
  // I make a creamy risotto?": "make" in many passages, "creamy" and "risotto" in none) or they
  // are most of the question in a README-sized workspace ("Which plants grow well in a shady
  // garden?"; the risotto beside a README where "make" is rare too).
  if (stats.documents < PLAIN_WORDS_MIN_PASSAGES) {
    const decides = gone.length > 1 && (onlyCommonBesides(question, gone, stats) || (mostlyGone && stats.documents >= FEW_PASSAGES));
    return decides && !heldTogether() ? writtenForms(question, named) : [];
  }
  if ((mostlyGone && !heldTogether()) || absentCarriesQuestion(question, gone, passages, stats)) return writtenForms(question, named);
  return [];
}

/**
 * A name in at most this many of the workspace's passages is mentioned there in passing ("…also
 * used by MySQL"), not covered. Chosen on the tune halves (docs/retrieval-and-evaluation.md): a
 * share of the workspace (0.5 %, 1 %) also took names a manual explains in a few places ("GUID").
 */
const IN_PASSING = 2;

/**
 * The products the question names that the workspace mentions only in passing, in no retrieved
 * passage (with its title and heading) that holds any of the question's other informative words:
 * "What is the default port of MySQL?" over PostgreSQL's manual, whose one MySQL passage is about
 * `LIMIT`; "How do I route WebSocket upgrade requests?" over a router's README. A passage pairing
 * the name with a word the question rests on is what it asks about ("…capabilities similar to
 * `IFNULL`, which are used in some other database systems"; "Windows › PowerShell" above "set
 * environment variables"); a sentence would be too narrow, as a paraphrase's words sit beside the
 * name's sentence ("ISO 8601-formatted time" under "Milliseconds since Unix epoch"). Not the
 * asker's own ("my CLI"), nor in a workspace of a few passages, where every name is rare.
 */
function namedInPassing(question: string, passages: readonly Passage[], stats: TermStats): string[] {
  if (stats.documents < FEW_PASSAGES) return [];
  const { tokens, weights } = weighQuestion(question, stats);
  const out: string[] = [];
  for (const name of namesIn(question)) {
    // A product's name as prose writes it ("MySQL", "WebSocket"); code names have rules of their own.
    if (!/^\p{Lu}[\p{L}\p{N}]*$/u.test(name) || askersOwn(question, name)) continue;
    const term = termOf(normalise(name));
    const count = stats.frequencies.get(term) ?? 0;
    if (count === 0 || count > IN_PASSING) continue;
    const rest = new Set(tokens.filter((t) => t.term !== term && !weights.generic(t.term)).map((t) => t.term));
    // The name is all the question asks about ("How do I parse YAML files?" beside a JSON page
    // that says its output "is also a subset of YAML 1.0"): covered by a section named for it.
    if (rest.size === 0) {
      if (!passages.some((p) => termSet(`${p.title ?? ''} ${p.heading ?? ''}`).has(term))) out.push(name);
      continue;
    }
    const paired = passages.some((p) => {
      const held = termSet(`${p.title ?? ''} ${p.heading ?? ''} ${p.content}`);
      return held.has(term) && [...rest].some((t) => held.has(t));
    });
    if (!paired) out.push(name);
  }
  return out;
}

/**
 * A prose name ("Windows", "MySQL", "POST") in nothing saved is an aside of the question when the
 * question says much else (ASIDE_MIN_WORDS other words), the name carries under ASIDE_SHARE of its
 * weight, and one retrieved sentence holds ASIDE_HELD_WORDS of the others, or two with
 * HELD_TOGETHER of their weight: the saved page answers the question, only not for that place.
 * "What is the default port of MySQL?" is about MySQL (half its weight, three words).
 */
function namesAnAside(question: string, name: string, passages: readonly Passage[], stats: TermStats): boolean {
  if (!/^\p{Lu}[\p{L}\p{N}]*(?:-\p{L}+)?$/u.test(name)) return false;
  const { tokens, weights } = weighQuestion(question, stats);
  const own = new Set(nameParts(name).map(termOf));
  const others = tokens.filter((t) => !own.has(t.term));
  if (others.length < ASIDE_MIN_WORDS) return false;
  const total = tokens.reduce((sum, t) => sum + weights.weight(t.term), 0);
  const nameWeight = tokens.filter((t) => own.has(t.term)).reduce((sum, t) => sum + weights.weight(t.term), 0);
  if (total === 0 || nameWeight >= ASIDE_SHARE * total) return false;
  const othersWeight = total - nameWeight;
  const held = (terms: ReadonlySet<string>) => {
    const found = others.filter((t) => terms.has(t.term));
    const weight = found.reduce((sum, t) => sum + weights.weight(t.term), 0);
    return found.length >= ASIDE_HELD_WORDS || (found.length >= 2 && weight >= HELD_TOGETHER * othersWeight) ? 1 : 0;
  };
  return mostHeldInOneSentence(passages, held) === 1;
}

/** The question names it as the asker's own ("my CLI's version number", "our Slack bot"). */
function askersOwn(question: string, name: string): boolean {
  return new RegExp(`\\b(?:my|our|your)\\s+(?:[\\p{L}-]+\\s+)?${escapeRegExp(name)}(?![\\p{L}\\p{N}])`, 'iu').test(question);
}

/** How many of these words (as terms) a sentence holds. */
function countOf(words: readonly string[]): (held: ReadonlySet<string>) => number {
  const wanted = new Set(words.map(termOf));
  return (held) => [...wanted].filter((t) => held.has(t)).length;
}

/** The most `measure` gives any one retrieved sentence, read with the label above it. */
function mostHeldInOneSentence(passages: readonly Passage[], measure: (held: ReadonlySet<string>) => number): number {
  let most = 0;
  for (const passage of passages) {
    for (const span of sentenceSpans(passage.content)) most = Math.max(most, measure(termSet(`${span.label?.text ?? ''} ${span.text}`)));
  }
  return most;
}

/**
 * Do the absent words carry the question? Their share of its weight is large, and no retrieved
 * sentence (with the label above it) holds even half of the weight of its remaining informative
 * words, in two of them when there are two: what was found only shares a word with it ("good"
 * plugins, a migration "recipe"). One absent word beside only generic ones is never enough, as in
 * missingTerms.
 */
function absentCarriesQuestion(question: string, gone: readonly string[], passages: readonly Passage[], stats: TermStats): boolean {
  const { tokens, weights } = weighQuestion(question, stats);
  const goneTerms = new Set(gone.map(termOf));
  const total = tokens.reduce((sum, t) => sum + weights.weight(t.term), 0);
  const absentWeight = tokens.filter((t) => goneTerms.has(t.term)).reduce((sum, t) => sum + weights.weight(t.term), 0);
  if (total === 0 || absentWeight < ABSENT_WEIGHT_SHARE * total) return false;
  const rest = tokens.filter((t) => !goneTerms.has(t.term) && !weights.generic(t.term));
  const restWeight = rest.reduce((sum, t) => sum + weights.weight(t.term), 0);
  // Everything else the question says is generic ("How do I pause my program for two seconds?"):
  // one word of the asker's own missing from the docs is their wording, not the subject.
  if (restWeight === 0) return gone.length > 1;
  // One informative word left beside words in nothing saved that carry half the question: a
  // sentence holding it shares a word, not the subject ("high" in "a random number <= high" for
  // "the boiling point of water at high altitude"; "complex" in "Subtraction of dates … can also
  // be complex" for "the time complexity of quicksort").
  if (rest.length === 1 && absentWeight >= ALONE_ABSENT_SHARE * total) return true;
  // Half the weight in one word is not the rest held together: "migration recipe" is not about
  // "a good recipe for lasagne".
  const together = Math.min(2, rest.length);
  const heldWeight = (held: ReadonlySet<string>) => {
    const found = rest.filter((t) => held.has(t.term));
    return found.length < together ? 0 : found.reduce((sum, t) => sum + weights.weight(t.term), 0);
  };
  return mostHeldInOneSentence(passages, heldWeight) < HELD_TOGETHER * restWeight;
}

/** Every word of the question but the absent ones is common in the workspace. */
function onlyCommonBesides(question: string, gone: readonly string[], stats: TermStats): boolean {
  const { tokens, weights } = weighQuestion(question, stats);
  const goneTerms = new Set(gone.map(termOf));
  return tokens.every((t) => goneTerms.has(t.term) || weights.generic(t.term));
}

/** Passages' titles, headings and text, normalised, to look a written word up in. */
export function haystackOf(passages: readonly { title: string | null; heading: string | null; content: string }[]): string {
  return normalise(passages.map((p) => `${p.title ?? ''} ${p.heading ?? ''} ${p.content}`).join('\n'));
}

/**
 * Whether the haystack holds `text` at the start of a word: "migration" is in "migrations", but
 * "orm" is not in "format", nor "gres" in "postgres". Inside another word, a short name would
 * count as saved wherever its letters happen to occur.
 */
export function startsWordIn(haystack: string, text: string): boolean {
  return text !== '' && new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(text)}`, 'u').test(haystack);
}

/** The words a name is made of, normalised ("pathlib.Path.teleport" → pathlib, path, teleport). */
export function nameParts(name: string): string[] {
  return [...normalise(name).matchAll(/[\p{L}\p{N}_]+/gu)].map((m) => m[0]).filter((w) => w.length > 1 && !STOPWORDS.has(w));
}

/** The asker's own spelling of a code name ("Max_Flux" for "max_flux"). */
function writtenCodeName(question: string, name: string): string {
  const at = normalise(question).indexOf(name);
  const written = at >= 0 ? question.slice(at, at + name.length) : '';
  return normalise(written) === name ? written : name;
}

/** The asker's own spelling of normalised words ("LaTeX" for "latex"). */
function writtenForms(question: string, words: readonly string[]): string[] {
  const written = new Map<string, string>();
  for (const m of question.matchAll(/[\p{L}\p{N}_]+/gu)) if (!written.has(normalise(m[0]))) written.set(normalise(m[0]), m[0]);
  return words.map((w) => written.get(w) ?? w);
}

/** The words of a question that look like names, as written. */
export function namesIn(question: string): string[] {
  const quoted = new Set<string>();
  for (const m of question.matchAll(/`([^`]+)`|"([^"]+)"|“([^”]+)”|'([^'\s][^']*[^'\s])'/g)) quoted.add((m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').trim());
  const out: string[] = [...quoted].filter((q) => q.length > 1 && q.split(/\s+/).length <= 3);
  for (const m of question.matchAll(WRITTEN_WORD)) {
    const word = m[0];
    const before = question.slice(0, m.index).trimEnd();
    const startsSentence = before === '' || /[.!?:]["')\]]*$/.test(before);
    const lower = word.toLowerCase();
    if (STOPWORDS.has(lower) || word.length < 2 || isValueWord(word)) continue;
    const identifier = /[_\d]/.test(word) && /\p{L}/u.test(word) || /\p{Ll}\p{Lu}/u.test(word) || /\p{L}\.\p{L}/u.test(word);
    const capitals = /^\p{Lu}[\p{Lu}\p{N}]+$/u.test(word);
    const capitalised = /^\p{Lu}/u.test(word) && !startsSentence && lower !== 'i';
    if ((identifier || capitals || capitalised) && !out.some((o) => o.includes(word))) out.push(word);
  }
  return out;
}
