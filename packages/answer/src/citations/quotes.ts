import type { Passage } from '../types.ts';

// A sentence ends at . ! ? (closing quotes may follow) and keeps the citation markers written
// right after it ("… 5 days." [1]), or at a line break.
const SENTENCE = /[^\n]*?(?:[.!?]["'”’)]*(?:\s*\[\d+\])*(?=\s|$)|\n|$)/g;
const QUOTE = /"([^"\n]+)"|“([^”\n]+)”/g;
const CITED = /\[(\d+)\]/g;
/** Shorter quotations are usually terms ("true", "onRequest"), not quoted passages. */
export const MIN_QUOTE_WORDS = 3;

export interface FabricatedQuotes {
  /** Exact substrings of the text to remove. */
  sentences: string[];
  quotes: string[];
}

/**
 * Finds sentences that put words in a source's mouth: a quotation of three or more words in a
 * sentence citing `[n]`, where none of the cited passages contains it. Compared after folding
 * case, whitespace, typographic quotes and dashes; an ellipsis inside a quotation may skip text.
 */
export function fabricatedQuoteSentences(
  text: string,
  unmask: (s: string) => string,
  passages: ReadonlyMap<number, Passage>,
): FabricatedQuotes {
  const sentences: string[] = [];
  const quotes: string[] = [];
  for (const m of text.matchAll(SENTENCE)) {
    const sentence = m[0];
    if (sentence.trim() === '') continue;
    const cited = [...sentence.matchAll(CITED)].map((c) => passages.get(Number(c[1])));
    if (cited.length === 0) continue;
    for (const q of sentence.matchAll(QUOTE)) {
      const quote = unmask(q[1] ?? q[2] ?? '');
      if (quote.trim().split(/\s+/).length < MIN_QUOTE_WORDS) continue;
      if (cited.some((p) => p !== undefined && containsQuote(p.content, quote))) continue;
      quotes.push(quote);
      if (!sentences.includes(sentence)) sentences.push(sentence);
    }
  }
  return { sentences, quotes };
}

export function containsQuote(source: string, quote: string): boolean {
  const haystack = fold(source);
  let from = 0;
  for (const part of quote.split(/\.\.\.|…|\[\.\.\.\]/)) {
    const needle = fold(part).replace(/^[\s.,;:!?]+|[\s.,;:!?]+$/g, '');
    if (needle === '') continue;
    const at = haystack.indexOf(needle, from);
    if (at < 0) return false;
    from = at + needle.length;
  }
  return true;
}

function fold(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[‘’‚‛`´]/g, "'")
    .replace(/[“”„‟«»]/g, '"')
    .replace(/[‐‑‒–—―−]/g, '-')
    .replace(/[*_]/g, '')
    .replace(/\s+/g, ' ');
}
