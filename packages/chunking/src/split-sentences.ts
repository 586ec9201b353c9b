/**
 * Splits prose into sentences without a model: a boundary is a terminator (. ! ? …, or the CJK
 * 。！？) followed by whitespace and then something that can start a sentence (an upper-case
 * letter, a digit, a quote, a bracket, a backtick, a list marker). That alone keeps "v1.2",
 * "3.14", "example.com/a.b" and "e.g. this" whole, since no whitespace or no capital follows the
 * dot. Known abbreviations ("e.g. Fastify", "Dr. Smith", "Fig. 3") and single initials
 * ("J. R. Smith") are not boundaries either. CJK terminators split without whitespace.
 * Returns trimmed sentences; their concatenation with single spaces is the input up to whitespace.
 */
const ABBREVIATIONS = new Set([
  'e.g', 'i.e', 'etc', 'vs', 'cf', 'al', 'approx', 'ca', 'fig', 'figs', 'eq', 'no', 'nos', 'vol',
  'pp', 'p', 'ch', 'sec', 'dept', 'est', 'inc', 'ltd', 'co', 'corp', 'jr', 'sr', 'mr', 'mrs', 'ms',
  'dr', 'prof', 'st', 'mt', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct',
  'nov', 'dec', 'a.m', 'p.m', 'u.s', 'u.k', 'e.u', 'n.b', 'op', 'cit', 'ibid', 'resp', 'incl',
  'min', 'max', 'avg', 'ref', 'refs', 'ed', 'eds', 'viz',
]);

// Terminator run, optional closing quotes/brackets, then the whitespace that ends the sentence.
// The lookbehinds start a match only at the first terminator of a run, which keeps a line of
// 200,000 dots linear instead of quadratic.
const BOUNDARY = /(?<![.!?…])([.!?…]+)(["'”’)\]]*)(\s+)(?=["'“‘([`*_\p{Lu}\p{Nd}-])|(?<![。！？])([。！？]+)(["'”’)\]」』]*)\s*/gu;

export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  for (const m of text.matchAll(BOUNDARY)) {
    const isCjk = m[4] !== undefined;
    const end = m.index + (isCjk ? m[0].length : (m[1] as string).length + (m[2] as string).length);
    if (!isCjk && m[1] === '.' && !m[2] && isAbbreviation(text, m.index)) continue;
    pushTrimmed(sentences, text.slice(start, end));
    start = m.index + m[0].length;
  }
  pushTrimmed(sentences, text.slice(start));
  return sentences;
}

/** The word before the dot at `dot` is an abbreviation or a single-letter initial. */
function isAbbreviation(text: string, dot: number): boolean {
  let from = dot;
  while (from > 0 && /[\p{L}.]/u.test(text[from - 1] as string)) from--;
  const word = text.slice(from, dot).toLowerCase();
  if (word.length === 0) return false;
  if (word.length === 1 && /\p{L}/u.test(word)) return true;
  return ABBREVIATIONS.has(word);
}

function pushTrimmed(out: string[], piece: string): void {
  const trimmed = piece.trim();
  if (trimmed) out.push(trimmed);
}
