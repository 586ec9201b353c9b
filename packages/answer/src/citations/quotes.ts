import type { Passage } from '../types.ts';

// A sentence ends at . ! ? outside a quotation (closing quotes may follow) and keeps the citation
// markers written right after it ("… 5 days." [1]), or at a line break.
const SENTENCE_END = /[.!?]["'”’)]*(?:\s*\[\d+\])*(?=\s|$)/g;
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
  for (const sentence of sentencesOf(text)) {
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

function sentencesOf(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const quoted = [...line.matchAll(QUOTE)].map((q) => [q.index, q.index + q[0].length] as const);
    let from = 0;
    for (const m of line.matchAll(SENTENCE_END)) {
      if (quoted.some(([start, end]) => m.index > start && m.index + m[0].length < end)) continue;
      out.push(line.slice(from, m.index + m[0].length));
      from = m.index + m[0].length;
    }
    out.push(line.slice(from));
  }
  return out.filter((s) => s.trim() !== '');
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
