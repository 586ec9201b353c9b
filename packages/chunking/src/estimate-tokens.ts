/**
 * A fast, deterministic token estimate, used for every budget in this package. It errs high
 * against OpenAI's cl100k tokenizer on English prose, code, numeric tables, other Latin-script
 * languages, Cyrillic, Greek, Arabic, Hebrew, Devanagari, Thai, Chinese, Japanese and Korean
 * (see the calibration tests), so a chunk that fits here fits there. It follows how cl100k cuts
 * text before it looks anything up: letters and digits are never in one piece, digits go in
 * threes, a space before a number is a token of its own, and whatever its vocabulary does not
 * know falls apart into pieces of a few bytes.
 *   - a run of letters costs the sum of its letters' weights, rounded up: an ASCII letter 1/5 in
 *     English text ("the" 1, "configure" 2, "internationalization" 4), 1/2.5 in any other text
 *     (see lettersPerTokenOf: "konfiguracyjny" is 5 cl100k tokens), an accented Latin letter 1, a
 *     Cyrillic letter 0.7, an Arabic letter 1, any other letter or combining mark (Greek, Hebrew,
 *     Indic, Thai …) 1.5;
 *   - a run of Han or kana costs 1.25 per character, of Hangul 1;
 *   - a run of ASCII digits costs ceil(length / 3), plus 1 when it starts a word ("in 2024" is
 *     "in", " ", "202", "4");
 *   - every other non-space character (punctuation, symbols, emoji, other digits) costs 1.
 * Whitespace is free, so the estimate of two texts joined by whitespace is the sum of theirs (with
 * the same `lettersPerToken`): packing can add up pieces without re-counting the whole chunk.
 * Rare ideographs (up to 3 tokens each in cl100k) are the known case it can still count low.
 */
export const ENGLISH_LETTERS_PER_TOKEN = 5;
export const OTHER_LETTERS_PER_TOKEN = 2.5;
const DIGITS_PER_TOKEN = 3;
/** English prose has 30–40 % of these; the fastify docs at least 13 %; other languages under 5 %. */
const ENGLISH_SHARE = 0.1;
const MIN_WORDS_TO_TELL = 12;
const ENGLISH_WORDS = new Set(
  ('the of and to in is it that for on with as are be this by or an from at not you your can if which when will has ' +
    'have its was than then also more all any each only other such these those there their into about but may must ' +
    'should would does how what').split(' '),
);

const ACCENTED_LATIN = 1;
const CYRILLIC = 0.7;
const ARABIC = 1;
const OTHER_SCRIPT = 1.5;
const HAN_KANA = 1.25;
const HANGUL = 1;

const enum Kind {
  Space,
  Letters,
  Ideographs,
  Digits,
  Single,
}

const NON_ASCII_LETTER = /[\p{L}\p{M}]/u;
const NON_ASCII_SPACE = /\s/u;

function isHanOrKana(code: number): boolean {
  return (
    (code >= 0x3040 && code <= 0x30ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0x20000 && code <= 0x3134f)
  );
}

function isHangul(code: number): boolean {
  return (code >= 0xac00 && code <= 0xd7af) || (code >= 0x1100 && code <= 0x11ff) || (code >= 0x3130 && code <= 0x318f);
}

function isAccentedLatin(code: number): boolean {
  return (code >= 0xc0 && code <= 0x24f && code !== 0xd7 && code !== 0xf7) || (code >= 0x300 && code <= 0x36f) || (code >= 0x1e00 && code <= 0x1eff);
}

function kindOf(code: number): Kind {
  if (code < 128) {
    if (code === 32 || (code >= 9 && code <= 13)) return Kind.Space;
    if (code >= 48 && code <= 57) return Kind.Digits;
    if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95) return Kind.Letters;
    return Kind.Single;
  }
  if (isHanOrKana(code) || isHangul(code)) return Kind.Ideographs;
  const char = String.fromCodePoint(code);
  if (NON_ASCII_SPACE.test(char)) return Kind.Space;
  if (NON_ASCII_LETTER.test(char)) return Kind.Letters;
  return Kind.Single;
}

/** What one character adds to its run (letters and ideographs; digits count by length). */
function weightOf(code: number, lettersPerToken: number): number {
  if (code < 128) return 1 / lettersPerToken;
  if (isHanOrKana(code)) return HAN_KANA;
  if (isHangul(code)) return HANGUL;
  if (isAccentedLatin(code)) return ACCENTED_LATIN;
  if (code >= 0x400 && code <= 0x52f) return CYRILLIC;
  if ((code >= 0x600 && code <= 0x6ff) || (code >= 0x750 && code <= 0x77f) || (code >= 0x8a0 && code <= 0x8ff)) return ARABIC;
  return OTHER_SCRIPT;
}

/** UTF-16 length of the code point at `i`. */
function width(code: number): number {
  return code > 0xffff ? 2 : 1;
}

/** Float sums of fifths and thirds land a hair above a whole number: "tenth" must cost 1, not 2. */
const roundUp = (sum: number) => Math.ceil(sum - 1e-9);

function startsWord(text: string, start: number): boolean {
  return start === 0 || kindOf(text.charCodeAt(start - 1)) === Kind.Space;
}

/**
 * Walks the runs of `text` from the start. For each run, calls `visit(start, end, kind, cost)`;
 * stops early when `visit` returns false.
 */
function scan(text: string, lettersPerToken: number, visit: (start: number, end: number, kind: Kind, cost: number) => boolean): void {
  let i = 0;
  while (i < text.length) {
    const code = text.codePointAt(i) as number;
    const kind = kindOf(code);
    let end = i + width(code);
    if (kind === Kind.Space) {
      i = end;
      continue;
    }
    let cost = 1;
    if (kind === Kind.Letters || kind === Kind.Ideographs) {
      let sum = weightOf(code, lettersPerToken);
      while (end < text.length) {
        const next = text.codePointAt(end) as number;
        if (kindOf(next) !== kind) break;
        sum += weightOf(next, lettersPerToken);
        end += width(next);
      }
      cost = roundUp(sum);
    } else if (kind === Kind.Digits) {
      while (end < text.length && kindOf(text.charCodeAt(end)) === Kind.Digits) end++;
      cost = Math.ceil((end - i) / DIGITS_PER_TOKEN) + (startsWord(text, i) ? 1 : 0);
    }
    if (!visit(i, end, kind, cost)) return;
    i = end;
  }
}

/**
 * ASCII letters per token for a whole text: 5 when it reads as English (at least one word in ten
 * is one of the commonest English words), 2.5 otherwise. cl100k's vocabulary is English: the same
 * Latin letters in Indonesian, Swahili, Polish or Finnish words, or in a text of bare identifiers,
 * cost about twice as many tokens. A text of fewer than 12 words says too little to tell and is
 * taken as English. Chunking decides once per document, so every piece of it is counted alike and
 * estimates still add up.
 */
export function lettersPerTokenOf(text: string): number {
  let words = 0;
  let english = 0;
  let word = '';
  const end = () => {
    if (word === '') return;
    words++;
    if (ENGLISH_WORDS.has(word)) english++;
    word = '';
  };
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 65 && code <= 90) word += String.fromCharCode(code + 32);
    else if (code >= 97 && code <= 122) word += text[i];
    else end();
    // Long words never are function words: stop collecting, keep counting.
    if (word.length > 8) word = word.slice(0, 8) + '#';
  }
  end();
  return words < MIN_WORDS_TO_TELL || english / words >= ENGLISH_SHARE ? ENGLISH_LETTERS_PER_TOKEN : OTHER_LETTERS_PER_TOKEN;
}

export function estimateTokens(text: string, lettersPerToken: number = lettersPerTokenOf(text)): number {
  let tokens = 0;
  scan(text, lettersPerToken, (_start, _end, _kind, cost) => {
    tokens += cost;
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
export function prefixWithinTokens(text: string, maxTokens: number, lettersPerToken: number = lettersPerTokenOf(text)): number {
  let tokens = 0;
  let lastBreak = 0;
  let cut = text.length;
  scan(text, lettersPerToken, (start, end, kind, cost) => {
    if (start > 0 && kindOf(text.charCodeAt(start - 1)) === Kind.Space) lastBreak = start;
    if (tokens + cost <= maxTokens) {
      tokens += cost;
      return true;
    }
    if (lastBreak > 0) {
      cut = lastBreak;
      return false;
    }
    // One run straddles the budget and no whitespace came before it: cut inside the run.
    const fits = fittingPrefix(text, start, end, kind, Math.max(0, maxTokens - tokens), lettersPerToken);
    // Nothing fits at the very start: take one whole code point anyway, so the caller advances.
    cut = start + fits > 0 ? start + fits : width(text.codePointAt(0) as number);
    return false;
  });
  return cut;
}

/** How many UTF-16 units of the run at `start..end` fit in `budget` tokens (whole code points). */
function fittingPrefix(text: string, start: number, end: number, kind: Kind, budget: number, lettersPerToken: number): number {
  if (kind === Kind.Single) return 0;
  const bonus = kind === Kind.Digits && startsWord(text, start) ? 1 : 0;
  let sum = 0;
  let i = start;
  while (i < end) {
    const code = text.codePointAt(i) as number;
    const next = i + width(code);
    const cost = kind === Kind.Digits ? Math.ceil((next - start) / DIGITS_PER_TOKEN) + bonus : roundUp(sum + weightOf(code, lettersPerToken));
    if (cost > budget) break;
    sum += kind === Kind.Digits ? 0 : weightOf(code, lettersPerToken);
    i = next;
  }
  return i - start;
}

/** One document's counting: every piece of it at the same letter rate, so estimates add up. */
export interface TokenCounter {
  count(text: string): number;
  prefix(text: string, maxTokens: number): number;
}

export function tokenCounterFor(document: string): TokenCounter {
  const lettersPerToken = lettersPerTokenOf(document);
  return {
    count: (text) => estimateTokens(text, lettersPerToken),
    prefix: (text, maxTokens) => prefixWithinTokens(text, maxTokens, lettersPerToken),
  };
}
