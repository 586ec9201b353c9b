import { normalise } from './terms.ts';

// "May" is a stop word already.
const CALENDAR: ReadonlySet<string> = new Set(
  'january february march april june july august september october november december monday tuesday wednesday thursday friday saturday sunday'.split(' '),
);
// A number alone or with an ordinal's or a unit's few letters: "2001", "31st", "10ms", "64MB", "1.5x".
const QUANTITY = /^\d+(?:[.,]\d+)*\p{L}{0,3}$/u;

/**
 * A word that states a value rather than names a subject: a date's month or weekday, a number, a
 * quantity. A manual writes "2001-03-31" or "8000 bytes" where the asker writes "March 31st" or
 * "8kB", so such a word missing from every passage says nothing of whether the question is covered.
 */
export function isValueWord(word: string): boolean {
  const w = normalise(word);
  return QUANTITY.test(w) || CALENDAR.has(w);
}
