/**
 * Text → words for the local embedder. Identifiers are kept whole and also split into their
 * words, so `FST_ERR_CTP_INVALID_MEDIA_TYPE`, `reply.send()`, `setErrorHandler` and
 * `content-type` match both themselves and questions that spell their parts out.
 */
export interface Tokens {
  /** Lower-case words in order: plain words and the parts of identifiers. */
  words: string[];
  /** Lower-case identifiers with more than one part, as written (connectors kept): "reply.send". */
  identifiers: string[];
}

// A compound: word characters joined by single connectors (. - _ / : ' and $ within names).
const COMPOUND = /[\p{L}\p{M}\p{N}$]+(?:[._\-/:'’][\p{L}\p{M}\p{N}$]+)*/gu;
// Parts of a compound: split at connectors, and at case changes ("setErrorHandler", "HTTPServer", "http2Server").
const PART = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+|[\p{L}\p{M}]+/gu;
const APOSTROPHE = /['’]/;
// eslint-disable-next-line no-control-regex -- the ASCII range, on purpose
const NON_ASCII = /[^\x00-\x7f]/;
/** Longer runs are data (hashes, base64), not words: kept as one feature, never split into parts. */
const MAX_WORD = 40;

export function tokenize(text: string): Tokens {
  const words: string[] = [];
  const identifiers: string[] = [];
  // NFKC leaves ASCII unchanged, and most passages are ASCII: skip the (costly) pass for them.
  const normalized = NON_ASCII.test(text) ? text.normalize('NFKC') : text;
  for (const match of normalized.matchAll(COMPOUND)) {
    let compound = match[0];
    // Possessives and contractions: "server's" → "server", "don't" → "dont" (a stopword).
    if (APOSTROPHE.test(compound)) compound = compound.replace(/['’]s$/i, '').replace(/['’]/g, '');
    if (compound.length > MAX_WORD) {
      words.push(compound.toLowerCase());
      continue;
    }
    const parts = compound.match(PART) ?? [];
    if (parts.length > 1) identifiers.push(compound.toLowerCase().replace(/[$]/g, ''));
    for (const part of parts) words.push(part.toLowerCase());
  }
  return { words, identifiers };
}
