import { stemmer } from 'stemmer';

/**
 * Function words that carry no topic: matching on them would make every sentence look relevant.
 * Kept short on purpose; question words are here because a question's "how" or "what" says
 * nothing about which sentence answers it.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are as at be because been before being below
  between both but by can could did do does doing down during each few for from further had has have
  having he her here hers him his how i if in into is it its itself just me more most my no nor not
  now of off on once only or other our ours out over own same she should so some such than that the
  their theirs them then there these they this those through to too under until up very was we were
  what when where which while who whom why will with would you your yours also may might must shall
  get gets got use used using want wants need needs way ways thing things`.split(/\s+/),
);

// Letters, digits and underscores: `FST_ERR_CTP_ALREADY_PRESENT` and `onRequest` stay whole.
const WORD = /[\p{L}\p{N}_]+/gu;

/** NFKC and lower case: full-width letters, ligatures and case never decide a match. */
export function normalise(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

// "didn't" would leave "didn", a word in no dictionary and no manual, which reads as a name the
// workspace lacks ("Nothing saved covers “didn”"). Each contraction becomes its full words, all
// of them stop words; "'s" is left, as its "s" is one letter and dropped anyway.
// One pass: a contraction's special forms first ("can't", "won't"), then "n't" and the endings.
const CONTRACTION = /\b(can|won|shan|ain)['’]t\b|(\p{L})n['’]t\b|(\p{L})['’](re|ve|ll|m|d)\b/gu;
const SPECIAL: Readonly<Record<string, string>> = { can: 'can not', won: 'will not', shan: 'shall not', ain: 'is not' };
const ENDING: Readonly<Record<string, string>> = { re: 'are', ve: 'have', ll: 'will', m: 'am', d: 'would' };

/** Normalised text with its English contractions written out ("didn't" → "did not"). */
export function withoutContractions(normalised: string): string {
  return normalised.replace(CONTRACTION, (_m, special?: string, beforeNot?: string, beforeEnding?: string, ending?: string) =>
    special ? (SPECIAL[special] ?? special) : beforeNot ? `${beforeNot} not` : `${beforeEnding ?? ''} ${ENDING[ending ?? ''] ?? ''}`,
  );
}

// "In order to delete a row…" is about deleting, not about an order: the idiom's "order" would
// match a question asking in which order rows come back. Its words go, its sense ("to") stays.
const IN_ORDER = /\bin order (?=(?:to|that|for)\b)/gu;
// "How many kinds of temporary files…" asks for a count: its "many" is the question's form, as
// "how" is, and would match "SQLite does make use of many temporary files" rather than the
// sentence that counts them ("SQLite currently uses nine distinct types of temporary files").
const HOW_MANY = /\bhow\s+(?:many|much)\b/gu;

/**
 * A text as its words are compared: normalised, contractions written out, "in order to" read as
 * "to", "how many" and "how much" as "how".
 */
export function comparableText(text: string): string {
  return withoutContractions(normalise(text)).replace(IN_ORDER, '').replace(HOW_MANY, 'how');
}

/** One token's comparable form: identifiers and numbers as they are, words Porter-stemmed. */
export function termOf(token: string): string {
  return /[_\d]/.test(token) ? token : stemmer(token);
}

/**
 * The content terms of a text, in order, with repeats: normalised, stop words and one-letter
 * tokens dropped, stemmed. The same function runs on questions and on passages.
 */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const match of comparableText(text).matchAll(WORD)) {
    const token = match[0];
    if (token.length < 2 || STOPWORDS.has(token)) continue;
    out.push(termOf(token));
  }
  return out;
}

export function termSet(text: string): Set<string> {
  return new Set(terms(text));
}
