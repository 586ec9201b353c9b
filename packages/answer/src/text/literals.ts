import { normalise } from './terms.ts';

// Quotes, brackets and sentence punctuation around a written value: "`~1.2.3`", "(0.1)", "2.3?".
const WRAPPING = /^[\s"'`“”‘’([{<]+|[\s"'`“”‘’)\]}>,;:!?.]+$/gu;
const DIGIT = /\p{N}/u;
// A sign inside the chunk, between or before its characters: "1.2.3", "~1.2", "127.0.0.1:8080".
const INNER_SIGN = /[^\p{L}\p{N}_\s]/u;
/**
 * A question that is a pasted log ("at 10:32:01.123 connecting to 10.0.0.5:5432 …") writes values
 * by the dozen; each costs a count over the workspace and a match per sentence, and the first few
 * say what it is about.
 */
const MAX_LITERALS = 8;

// A path as a route or a file system writes it: "/foo/", "//a//b//c//", "./lib/index.js", "~/.npmrc".
const PATH = /^(?:\.{1,2}|~)?\/\S*[\p{L}\p{N}]/u;

/**
 * The values a question writes out that terms() cannot see whole: a version, a range or an address
 * breaks into one-digit tokens ("~1.2.3" → "1", "2", "3") and those are dropped, and a path into
 * words ("/foo/" and "/foo" are both "foo"). A chunk of the question that holds a digit and a sign
 * ("^0.2.3", "1.2.3", "0.0.0.0:3000"), or that is a path, is such a value.
 */
export function literalsOf(question: string): string[] {
  const out = new Set<string>();
  for (const chunk of normalise(question).split(/\s+/)) {
    const value = chunk.replace(WRAPPING, '');
    if ((DIGIT.test(value) && INNER_SIGN.test(value)) || PATH.test(value)) out.add(value);
    if (out.size === MAX_LITERALS) break;
  }
  return [...out];
}

// Signs before and after a value's first and last letter or digit: "~" of "~1.2.3", "^" of "^0.2".
const OUTER_SIGNS = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;

/**
 * The value without its outer signs, as PostgreSQL's parser reads it in a passage: "`~1.2.3`"
 * there is the version "1.2.3" (though "~1.2.3" alone would be one token no passage holds).
 */
export function parsedForm(literal: string): string {
  return literal.replace(OUTER_SIGNS, '');
}

/** holdsLiteral as a PostgreSQL regular expression (no Unicode classes there), for `~*`. */
export function literalPattern(literal: string): string {
  return `(^|[^[:alnum:]_.]|(^|[^[:alnum:]])[.])${escapeRegExp(literal)}($|[^[:alnum:]_.+-]|[.+-]($|[^[:alnum:]]))`;
}

/**
 * Does the text write this value as a whole? "`~1.2.3` := …" writes "~1.2.3"; "~1.2.3-beta.2"
 * and "2.3.4" are other values that begin the same way, and "11.2.3" (or "1.2.3", for "2.3")
 * another that ends the same way.
 */
export function holdsLiteral(text: string, literal: string): boolean {
  return wholeValue(literal).test(normalise(text));
}

/**
 * holdsLiteral for many texts: each value's expression built once, each text normalised once
 * (the answerer asks it of every candidate sentence).
 */
export function literalsHeldBy(literals: readonly string[]): (text: string) => string[] {
  const patterns = literals.map((literal) => ({ literal, pattern: wholeValue(literal) }));
  return (text) => {
    if (patterns.length === 0) return [];
    const normalised = normalise(text);
    return patterns.filter((p) => p.pattern.test(normalised)).map((p) => p.literal);
  };
}

function wholeValue(literal: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}_]|[\\p{L}\\p{N}][.])${escapeRegExp(literal)}(?![\\p{L}\\p{N}_]|[.\\-+][\\p{L}\\p{N}])`, 'u');
}

/** The text as a regular expression that matches it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
