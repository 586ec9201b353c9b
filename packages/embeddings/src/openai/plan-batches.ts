/**
 * Fits inputs into requests the API accepts. OpenAI's embeddings endpoint takes at most 2048
 * inputs and 300,000 tokens per request, and rejects any input over 8191 tokens. Tokens are
 * estimated without a tokenizer and on the high side: an ASCII character is a third of a token
 * (real English text is nearer a quarter), any other UTF-16 unit a whole one (CJK text is about one
 * token per character). An input over the per-input budget is split into parts at whitespace; the
 * caller embeds the parts and combines their vectors.
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

export function estimateInputTokens(text: string): number {
  let ascii = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 128) ascii++;
  return Math.ceil(ascii / 3) + (text.length - ascii);
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

/** Consecutive parts within `maxTokens`, cut at the last whitespace before the limit when there is one. */
function splitText(text: string, maxTokens: number): string[] {
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    let tokens = 0;
    let end = start;
    let lastSpace = -1;
    while (end < text.length) {
      const code = text.charCodeAt(end);
      const cost = code < 128 ? 1 / 3 : 1;
      if (tokens + cost > maxTokens) break;
      tokens += cost;
      if (code === 32 || code === 10 || code === 9 || code === 13) lastSpace = end;
      end++;
    }
    if (end < text.length) {
      if (lastSpace > start) end = lastSpace + 1;
      // Never split a surrogate pair.
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
