import type { TokenCounter } from './estimate-tokens.ts';
import type { Piece } from './pieces.ts';
import { splitSentences } from './split-sentences.ts';

/**
 * Packs consecutive pieces of one section into passages of at most `maxTokens`. Each passage after
 * the first starts with the previous passage's last whole sentences, up to `overlapTokens`, so a
 * fact that straddles a boundary is found in either passage. Returns the passages' text.
 */
export function packPieces(pieces: readonly Piece[], maxTokens: number, overlapTokens: number, counter: TokenCounter): string[] {
  const passages: string[] = [];
  let current: Piece[] = [];
  let tokens = 0;
  let fresh = 0;
  for (const piece of pieces) {
    if (fresh > 0 && tokens + piece.tokens > maxTokens) {
      passages.push(join(current));
      current = overlapOf(current, overlapTokens, counter);
      tokens = sum(current);
      // The overlap yields to new text: shrink it from the front until the next piece fits.
      while (current.length > 0 && tokens + piece.tokens > maxTokens) {
        tokens -= (current.shift() as Piece).tokens;
      }
      fresh = 0;
    }
    current.push(piece);
    tokens += piece.tokens;
    fresh++;
  }
  if (fresh > 0) passages.push(join(current));
  return passages;
}

/** The longest run of whole sentences (or whole items) at the end of `pieces` within `budget`. */
function overlapOf(pieces: readonly Piece[], budget: number, counter: TokenCounter): Piece[] {
  const taken: Piece[] = [];
  let left = budget;
  for (let i = pieces.length - 1; i >= 0 && left > 0; i--) {
    const piece = pieces[i] as Piece;
    if (piece.overlap === 'none') break;
    if (piece.tokens <= left) {
      taken.unshift(piece);
      left -= piece.tokens;
      continue;
    }
    if (piece.overlap === 'sentences') {
      const sentences = splitSentences(piece.text);
      for (let s = sentences.length - 1; s >= 0; s--) {
        const text = sentences[s] as string;
        const cost = counter.count(text);
        if (cost > left) break;
        taken.unshift({ text, tokens: cost, joiner: ' ', overlap: 'sentences' });
        left -= cost;
      }
    }
    break;
  }
  return taken;
}

function join(pieces: readonly Piece[]): string {
  let out = '';
  for (const [i, piece] of pieces.entries()) out += (i === 0 ? '' : piece.joiner) + piece.text;
  return out;
}

function sum(pieces: readonly Piece[]): number {
  let total = 0;
  for (const piece of pieces) total += piece.tokens;
  return total;
}
