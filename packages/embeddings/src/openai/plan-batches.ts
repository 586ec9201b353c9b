/**
 * Fits inputs into requests the API accepts. OpenAI's embeddings endpoint takes at most 2048
 * inputs and 300,000 tokens per request, and rejects any input over 8191 tokens. An input over
 * the per-input budget is split into parts at whitespace; the caller embeds the parts and
 * combines their vectors.
 */
export interface BatchLimits {
  maxBatchSize: number;
  maxTokensPerRequest: number;
  maxTokensPerInput: number;
}

export interface PlannedInput {
  /** Index of the caller's text this input (or part of it) came from. */
  owner: number;
  text: string;
  tokens: number;
}

export interface BatchPlan {
  batches: PlannedInput[][];
  /** Caller indexes that were split, with their estimated size and number of parts. */
  split: { index: number; tokens: number; parts: number }[];
}

/**
 * Tokens, estimated without a tokenizer and never far below OpenAI's cl100k count, including for
 * text that tokenizes badly (measured in the tests against cl100k: prose and code, base64, hex,
 * digits, punctuation, emoji, CJK):
 *   - a run of letters that reads as a word (at most 24 letters, at most 3 lower→upper changes,
 *     as in "setErrorHandler"): a third of a token per letter (English averages a quarter);
 *   - any other run of letters and digits (hashes, base64, "v1.2.3"-like ids): 1 per 1.3
 *     characters, or 1 per 3 digits for a run of digits only;
 *   - any other ASCII character except whitespace: 1 (a tokenizer needs at most one per byte);
 *   - a line break: 1; a single space: 0 before a letter (it joins the word), 1 before anything
 *     else; a run of spaces or tabs: one per 4;
 *   - anything else: two thirds of a token per UTF-8 byte.
 */
export function estimateInputTokens(text: string): number {
  // Summed by kind and divided once at the end, so the result is exact for round counts.
  let wordLetters = 0;
  let denseChars = 0;
  let whole = 0;
  let otherBytes = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (isAlnum(code)) {
      let end = i;
      let digits = 0;
      let humps = 0;
      let previousLower = false;
      while (end < text.length) {
        const c = text.charCodeAt(end);
        if (!isAlnum(c)) break;
        const lower = c >= 97 && c <= 122;
        if (c >= 48 && c <= 57) digits++;
        else if (c >= 65 && c <= 90 && previousLower) humps++;
        previousLower = lower;
        end++;
      }
      const length = end - i;
      if (digits === 0 && length <= 24 && humps <= 3) wordLetters += length;
      else if (digits === length) whole += Math.ceil(digits / 3);
      else denseChars += length;
      i = end;
      continue;
    }
    if (code === 32 || code === 9 || code === 13) {
      let end = i + 1;
      while (end < text.length && (text.charCodeAt(end) === 32 || text.charCodeAt(end) === 9)) end++;
      // One space joins the next word; before digits or a symbol it is often a token of its own;
      // a run of spaces (indentation) makes tokens of its own.
      if (end - i > 1) whole += Math.ceil((end - i) / 4);
      else if (end < text.length && !isLetter(text.charCodeAt(end))) whole += 1;
      i = end;
      continue;
    }
    if (code < 128) {
      whole += 1;
      i++;
      continue;
    }
    const point = text.codePointAt(i) as number;
    otherBytes += point < 0x800 ? 2 : point < 0x10000 ? 3 : 4;
    i += point > 0xffff ? 2 : 1;
  }
  return Math.ceil(wordLetters / 3 + denseChars / 1.3 + (otherBytes * 2) / 3) + whole;
}

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isAlnum(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

export function planBatches(texts: readonly string[], limits: BatchLimits): BatchPlan {
  const batches: PlannedInput[][] = [];
  const split: BatchPlan['split'] = [];
  let batch: PlannedInput[] = [];
  let batchTokens = 0;
  const push = (input: PlannedInput) => {
    if (batch.length > 0 && (batch.length >= limits.maxBatchSize || batchTokens + input.tokens > limits.maxTokensPerRequest)) {
      batches.push(batch);
      batch = [];
      batchTokens = 0;
    }
    batch.push(input);
    batchTokens += input.tokens;
  };
  texts.forEach((text, owner) => {
    const tokens = estimateInputTokens(text);
    if (tokens <= limits.maxTokensPerInput) {
      push({ owner, text, tokens });
      return;
    }
    const parts = splitText(text, limits.maxTokensPerInput);
    split.push({ index: owner, tokens, parts: parts.length });
    for (const part of parts) push({ owner, text: part, tokens: estimateInputTokens(part) });
  });
  if (batch.length > 0) batches.push(batch);
  return { batches, split };
}

/**
 * Consecutive parts within `maxTokens`, cut at the last whitespace before the limit when there is
 * one. Parts are sized with a cost per character that is at least estimateInputTokens' (one per
 * ASCII character, UTF-8 bytes × 2/3 for the rest), so every part is within the budget.
 */
function splitText(text: string, maxTokens: number): string[] {
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    let tokens = 0;
    let end = start;
    let lastSpace = -1;
    while (end < text.length) {
      const code = text.charCodeAt(end);
      const cost = code < 128 ? 1 : code < 0x800 ? 4 / 3 : 2;
      if (tokens + cost > maxTokens) break;
      tokens += cost;
      if (code === 32 || code === 10 || code === 9 || code === 13) lastSpace = end;
      end++;
    }
    if (end < text.length) {
      // Cut after the last whitespace if it keeps at least half of the part; otherwise mid-run.
      if (lastSpace > start + (end - start) / 2) end = lastSpace + 1;
      else if (isLowSurrogate(text.charCodeAt(end)) && end - 1 > start) end--;
    }
    const part = text.slice(start, end).trim();
    if (part) parts.push(part);
    start = end;
  }
  return parts;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
