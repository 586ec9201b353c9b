import { weighQuestion, type TermStats } from './term-weights.ts';
import { termSet } from './terms.ts';

/**
 * How much of what the question asks a text holds: the summed rarity weights of the question's
 * informative (not generic) words it contains, each counted once.
 */
export function questionRelevance(question: string, stats: TermStats): (text: string) => number {
  const { tokens, weights } = weighQuestion(question, stats);
  const informative = [...new Set(tokens.map((t) => t.term))].filter((t) => !weights.generic(t));
  return (text) => {
    const held = termSet(text);
    return informative.reduce((sum, t) => sum + (held.has(t) ? weights.weight(t) : 0), 0);
  };
}
