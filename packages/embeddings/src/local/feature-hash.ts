/**
 * 32-bit FNV-1a, fed one UTF-16 code unit at a time so callers hash substrings and concatenations
 * without allocating them. Each feature kind starts from its own seed, so the word "log" and the
 * character trigram "log" are different features.
 */
export const FNV_OFFSET = 0x811c9dc5;

export function fnvStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193) >>> 0;
}

export function fnvString(hash: number, text: string, from = 0, to = text.length): number {
  let h = hash;
  for (let i = from; i < to; i++) h = fnvStep(h, text.charCodeAt(i));
  return h;
}

/** murmur3's finaliser: spreads FNV's bits so bucket and sign come from independent-looking bits. */
export function mix(hash: number): number {
  let h = hash;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
