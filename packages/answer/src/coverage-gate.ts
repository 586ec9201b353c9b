import { normalise, STOPWORDS, termOf } from './text/terms.ts';
import type { TermStats } from './text/term-weights.ts';
import type { Passage } from './types.ts';

// A word as the asker wrote it, with the code-ish characters names are made of.
const WRITTEN_WORD = /[\p{L}\p{N}_][\p{L}\p{N}_.-]*[\p{L}\p{N}_]|[\p{L}\p{N}_]/gu;

/**
 * The names in a question that nothing saved in the workspace contains: a product, a setting,
 * a function or an error code the asker names ("NOTIFY", "max_parallel_flux", "Django"), absent
 * from every live passage. Quoting a loosely related sentence would answer a question about
 * something else; the honest answer names what is missing. Ordinary words are never enough to
 * refuse on: a user's own wording ("crash", "slow") need not appear in the docs that answer it.
 *
 * A name is an identifier (`snake_case`, `camelCase`, dotted, with digits), an all-capitals
 * word, a word in backticks or quotes, or a capitalised word that does not start a sentence.
 * It is missing when the workspace counts no passage holding it and no retrieved passage
 * contains it as written either (PostgreSQL's stemming and ours could disagree).
 */
export function missingNames(question: string, passages: readonly Passage[], stats: TermStats): string[] {
  if (stats.documents === 0) return [];
  const haystack = normalise(passages.map((p) => `${p.title ?? ''} ${p.heading ?? ''} ${p.content}`).join('\n'));
  const missing: string[] = [];
  for (const name of namesIn(question)) {
    const parts = [...normalise(name).matchAll(/[\p{L}\p{N}_]+/gu)].map((m) => m[0]).filter((w) => w.length > 1 && !STOPWORDS.has(w));
    if (parts.length === 0) continue;
    const counted = parts.map((w) => stats.frequencies.get(termOf(w)));
    // Every part of a name must be counted and found in no passage: an uncounted part means
    // PostgreSQL dropped it as a stop word, so its absence says nothing.
    if (counted.some((df) => df === undefined || df > 0)) continue;
    if (haystack.includes(normalise(name))) continue;
    if (!missing.includes(name)) missing.push(name);
  }
  return missing;
}

/** The words of a question that look like names, as written. */
export function namesIn(question: string): string[] {
  const quoted = new Set<string>();
  for (const m of question.matchAll(/`([^`]+)`|"([^"]+)"|“([^”]+)”|'([^'\s][^']*[^'\s])'/g)) quoted.add((m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').trim());
  const out: string[] = [...quoted].filter((q) => q.length > 1 && q.split(/\s+/).length <= 3);
  for (const m of question.matchAll(WRITTEN_WORD)) {
    const word = m[0];
    const before = question.slice(0, m.index).trimEnd();
    const startsSentence = before === '' || /[.!?:]["')\]]*$/.test(before);
    const lower = word.toLowerCase();
    if (STOPWORDS.has(lower) || word.length < 2) continue;
    const identifier = /[_\d]/.test(word) && /\p{L}/u.test(word) || /\p{Ll}\p{Lu}/u.test(word) || /\p{L}\.\p{L}/u.test(word);
    const capitals = /^\p{Lu}[\p{Lu}\p{N}]+$/u.test(word);
    const capitalised = /^\p{Lu}/u.test(word) && !startsSentence && lower !== 'i';
    if ((identifier || capitals || capitalised) && !out.some((o) => o.includes(word))) out.push(word);
  }
  return out;
}
