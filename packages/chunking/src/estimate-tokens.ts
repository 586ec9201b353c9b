/**
 * A fast, deterministic token estimate, used for every budget in this package. It is close to
 * OpenAI's cl100k/o200k tokenizers on English prose and errs high on code and identifiers, so a
 * chunk that fits here fits there:
 *   - a run of letters, digits or `_` costs ceil(length / 5): "the" 1, "configure" 2,
 *     "internationalization" 4 (real tokenizers split long and rare words into pieces);
 *   - a run of digits costs ceil(length / 3) (tokenizers group digits by three);
 *   - each Han, kana or Hangul character costs 1;
 *   - every other non-space character (punctuation, symbols, emoji) costs 1.
 * Whitespace is free, so the estimate of two texts joined by whitespace is the sum of theirs:
 * packing can add up pieces without re-counting the whole chunk.
 */
const TOKEN_RUN = /(\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Hangul})|(\p{Nd}+)|([\p{L}\p{M}\p{N}_]+)|(\S)/gu;

const CHARS_PER_WORD_TOKEN = 5;
const DIGITS_PER_TOKEN = 3;

export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const m of text.matchAll(TOKEN_RUN)) {
    if (m[2] !== undefined) tokens += Math.ceil(m[2].length / DIGITS_PER_TOKEN);
    else if (m[3] !== undefined) tokens += Math.ceil(m[3].length / CHARS_PER_WORD_TOKEN);
    else tokens += 1;
  }
  return tokens;
}

/**
 * The length of the longest prefix of `text` whose estimate is at most `maxTokens`, cut after a
 * whitespace when one exists in the prefix, mid-run only when a single run is over the budget
 * (a 200 KB line without spaces). Never splits a surrogate pair. Returns at least one character
 * when `text` is not empty, so a caller that loops always advances.
 */
export function prefixWithinTokens(text: string, maxTokens: number): number {
  let tokens = 0;
  let lastBreak = 0;
  for (const m of text.matchAll(TOKEN_RUN)) {
    const start = m.index;
    if (start > 0 && /\s/.test(text[start - 1] ?? '')) lastBreak = start;
    const run = m[0];
    const perToken = m[2] !== undefined ? DIGITS_PER_TOKEN : m[3] !== undefined ? CHARS_PER_WORD_TOKEN : run.length;
    const cost = Math.ceil(run.length / perToken);
    if (tokens + cost <= maxTokens) {
      tokens += cost;
      continue;
    }
    if (lastBreak > 0) return lastBreak;
    // A single run straddles the budget and no whitespace came before it: cut inside the run.
    const fits = Math.max(0, maxTokens - tokens) * perToken;
    return safeCut(text, Math.max(1, start + Math.min(fits, run.length)));
  }
  return text.length;
}

function safeCut(text: string, at: number): number {
  const code = text.charCodeAt(at);
  // A low surrogate at the cut means the cut would split a pair: move it back one.
  if (at > 0 && at < text.length && code >= 0xdc00 && code <= 0xdfff) return at - 1 > 0 ? at - 1 : at + 1;
  return at;
}
