/**
 * The Porter (1980) suffix stripper, as in Martin Porter's reference implementation (with its
 * published departures: "bli" → "ble", "logi" → "log"). It maps morphological variants to one
 * stem ("configure", "configured", "configuration" → "configur"); it knows no meaning, so
 * "logger" and "log" stay apart (the concept table and character n-grams bridge those).
 * Input: one lower-case word of ASCII letters; anything else is returned unchanged.
 */
export function porterStem(word: string): string {
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word;
  let w = step1a(word);
  w = step1b(w);
  w = step1c(w);
  w = replaceSuffix(w, STEP2, 0);
  w = replaceSuffix(w, STEP3, 0);
  w = step4(w);
  w = step5(w);
  return w;
}

function isConsonant(w: string, i: number): boolean {
  const c = w[i];
  if (c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u') return false;
  if (c === 'y') return i === 0 ? true : !isConsonant(w, i - 1);
  return true;
}

/** m in [C](VC){m}[V]: the number of vowel-consonant sequences. */
function measure(s: string): number {
  let n = 0;
  let i = 0;
  while (i < s.length && isConsonant(s, i)) i++;
  while (i < s.length) {
    while (i < s.length && !isConsonant(s, i)) i++;
    if (i >= s.length) break;
    n++;
    while (i < s.length && isConsonant(s, i)) i++;
  }
  return n;
}

function hasVowel(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isConsonant(s, i)) return true;
  return false;
}

function endsWithDoubleConsonant(s: string): boolean {
  const n = s.length;
  return n >= 2 && s[n - 1] === s[n - 2] && isConsonant(s, n - 1);
}

/** consonant-vowel-consonant, the last not w, x or y ("hop", not "snow"). */
function cvc(s: string): boolean {
  const n = s.length;
  if (n < 3 || !isConsonant(s, n - 3) || isConsonant(s, n - 2) || !isConsonant(s, n - 1)) return false;
  const last = s[n - 1];
  return last !== 'w' && last !== 'x' && last !== 'y';
}

function step1a(w: string): string {
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ies')) return w.slice(0, -2);
  if (w.endsWith('ss')) return w;
  if (w.endsWith('s')) return w.slice(0, -1);
  return w;
}

function step1b(w: string): string {
  if (w.endsWith('eed')) return measure(w.slice(0, -3)) > 0 ? w.slice(0, -1) : w;
  let stem: string | undefined;
  if (w.endsWith('ed') && hasVowel(w.slice(0, -2))) stem = w.slice(0, -2);
  else if (w.endsWith('ing') && hasVowel(w.slice(0, -3))) stem = w.slice(0, -3);
  if (stem === undefined) return w;
  if (stem.endsWith('at') || stem.endsWith('bl') || stem.endsWith('iz')) return stem + 'e';
  if (endsWithDoubleConsonant(stem) && !/[lsz]$/.test(stem)) return stem.slice(0, -1);
  if (measure(stem) === 1 && cvc(stem)) return stem + 'e';
  return stem;
}

function step1c(w: string): string {
  return w.endsWith('y') && hasVowel(w.slice(0, -1)) ? w.slice(0, -1) + 'i' : w;
}

// Longest suffix first: Porter applies the longest matching suffix or none at all.
const STEP2: readonly [string, string][] = sortByLength([
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'],
  ['bli', 'ble'], ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'],
  ['ization', 'ize'], ['ation', 'ate'], ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'],
  ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'], ['iviti', 'ive'], ['biliti', 'ble'],
  ['logi', 'log'],
]);

const STEP3: readonly [string, string][] = sortByLength([
  ['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', ''],
]);

const STEP4 = sortByLength(
  ['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'].map(
    (s) => [s, ''] as [string, string],
  ),
);

function replaceSuffix(w: string, rules: readonly [string, string][], minMeasure: number): string {
  for (const [suffix, replacement] of rules) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    return measure(stem) > minMeasure ? stem + replacement : w;
  }
  return w;
}

function step4(w: string): string {
  for (const [suffix] of STEP4) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    if (measure(stem) <= 1) return w;
    if (suffix === 'ion' && !/[st]$/.test(stem)) return w;
    return stem;
  }
  return w;
}

function step5(w: string): string {
  if (w.endsWith('e')) {
    const stem = w.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !cvc(stem))) w = stem;
  }
  if (w.endsWith('ll') && measure(w) > 1) w = w.slice(0, -1);
  return w;
}

function sortByLength(rules: [string, string][]): [string, string][] {
  return [...rules].sort((a, b) => b[0].length - a[0].length);
}
