/**
 * A fast, deterministic token estimate, used for every budget in this package. It is close to
 * OpenAI's cl100k/o200k tokenizers on English prose and errs high on code and identifiers, so a
 * chunk that fits here fits there:
 *   - a run of letters, marks, digits or `_` that starts with a letter costs ceil(length / 5):
 *     "the" 1, "configure" 2, "internationalization" 4 (real tokenizers split long and rare
 *     words into pieces);
 *   - a run of digits costs ceil(length / 3) (tokenizers group digits by three);
 *   - each Han, kana or Hangul character costs 1;
 *   - every other non-space character (punctuation, symbols, emoji) costs 1.
 * Whitespace is free, so the estimate of two texts joined by whitespace is the sum of theirs:
 * packing can add up pieces without re-counting the whole chunk. One pass over the characters,
 * no regular expression for ASCII.
 */
const CHARS_PER_WORD_TOKEN = 5;
const DIGITS_PER_TOKEN = 3;

const enum Kind {
  Space,
  Word,
  Digit,
  Single,
}

const NON_ASCII_WORD = /[\p{L}\p{M}\p{N}]/u;
const NON_ASCII_DIGIT = /\p{Nd}/u;
const NON_ASCII_SPACE = /\s/u;

/** Han, Hiragana, Katakana and Hangul: about one token per character, and no spaces between words. */
function isCjk(code: number): boolean {
  return (
    (code >= 0x3040 && code <= 0x30ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xac00 && code <= 0xd7af) ||
    (code >= 0x1100 && code <= 0x11ff) ||
    (code >= 0x20000 && code <= 0x3134f)
  );
}

function kindOf(code: number): Kind {
  if (code < 128) {
    if (code === 32 || (code >= 9 && code <= 13)) return Kind.Space;
    if (code >= 48 && code <= 57) return Kind.Digit;
    if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95) return Kind.Word;
    return Kind.Single;
  }
  if (isCjk(code)) return Kind.Single;
  const char = String.fromCodePoint(code);
  if (NON_ASCII_SPACE.test(char)) return Kind.Space;
  if (NON_ASCII_DIGIT.test(char)) return Kind.Digit;
  if (NON_ASCII_WORD.test(char)) return Kind.Word;
  return Kind.Single;
}

/** UTF-16 length of the code point at `i`. */
function width(code: number): number {
  return code > 0xffff ? 2 : 1;
}

/**
 * Walks the runs of `text` from the start. For each run, calls `visit(start, end, kind)`; stops
 * early when `visit` returns false.
 */
function scan(text: string, visit: (start: number, end: number, kind: Kind) => boolean): void {
  let i = 0;
  while (i < text.length) {
    const code = text.codePointAt(i) as number;
    const kind = kindOf(code);
    let end = i + width(code);
    if (kind === Kind.Space) {
      i = end;
      continue;
    }
    if (kind === Kind.Word || kind === Kind.Digit) {
      while (end < text.length) {
        const next = text.codePointAt(end) as number;
        const nextKind = kindOf(next);
        // A word run takes digits too ("http2"); a digit run only digits ("2048", then "px").
        if (nextKind === Kind.Digit || (nextKind === Kind.Word && kind === Kind.Word)) end += width(next);
        else break;
      }
    }
    if (!visit(i, end, kind)) return;
    i = end;
  }
}

function costOf(length: number, kind: Kind): number {
  if (kind === Kind.Word) return Math.ceil(length / CHARS_PER_WORD_TOKEN);
  if (kind === Kind.Digit) return Math.ceil(length / DIGITS_PER_TOKEN);
  return 1;
}

export function estimateTokens(text: string): number {
  let tokens = 0;
  scan(text, (start, end, kind) => {
    tokens += costOf(end - start, kind);
    return true;
  });
  return tokens;
}

/**
 * The length of the longest prefix of `text` whose estimate is at most `maxTokens`, cut before
 * the last run that follows whitespace when there is one, mid-run only when a single run is over
 * the budget (a 200 KB line without spaces). Never splits a surrogate pair. Returns at least one
 * character when `text` is not empty, so a caller that loops always advances.
 */
export function prefixWithinTokens(text: string, maxTokens: number): number {
  let tokens = 0;
  let lastBreak = 0;
  let cut = text.length;
  scan(text, (start, end, kind) => {
    if (start > 0 && kindOf(text.charCodeAt(start - 1)) === Kind.Space) lastBreak = start;
    const cost = costOf(end - start, kind);
    if (tokens + cost <= maxTokens) {
      tokens += cost;
      return true;
    }
    if (lastBreak > 0) {
      cut = lastBreak;
      return false;
    }
    // One run straddles the budget and no whitespace came before it: cut inside the run.
    const perToken = kind === Kind.Word ? CHARS_PER_WORD_TOKEN : kind === Kind.Digit ? DIGITS_PER_TOKEN : end - start;
    const fits = Math.max(0, maxTokens - tokens) * perToken;
    cut = safeCut(text, Math.max(1, start + Math.min(fits, end - start)));
    return false;
  });
  return cut;
}

function safeCut(text: string, at: number): number {
  const code = text.charCodeAt(at);
  // A low surrogate at the cut means the cut would split a pair: move it back one, or on past the pair.
  if (at > 0 && at < text.length && code >= 0xdc00 && code <= 0xdfff) return at - 1 > 0 ? at - 1 : at + 1;
  return at;
}
