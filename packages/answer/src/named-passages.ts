import { matchArtifacts, withWorkspace, type AudienceFilter, type Database } from '@brain/db';
import { haystackOf, nameParts, namesIn } from './coverage-gate.ts';
import { genericFrom, type TermStats } from './text/term-weights.ts';
import { normalise, termOf } from './text/terms.ts';
import type { ContextMatch } from './types.ts';

/** Passages added at most, for all the question's names together. */
const KEEP = 2;

/**
 * The passages that hold a rare name the question asks about ("GUID", "IFNULL",
 * `FST_ERR_CTP_BODY_TOO_LARGE`) when nothing the answer would read holds it. The fused search
 * ranks passages by every word of the question, and a page that shares its everyday words can
 * push out the one passage that names what was asked; the keyword leg alone, asked for that name
 * only, finds it. Only a name whose every word is rare in the workspace (in some passage, and in
 * fewer than the generic share) counts: a common one is in the passages already or tells nothing.
 * Found by match_artifacts as the workspace's tenant, for this reply's audience.
 */
export async function namedPassages(
  db: Database,
  input: { workspaceId: string; audience: AudienceFilter; question: string; context: readonly ContextMatch[]; termStats: TermStats },
): Promise<ContextMatch[]> {
  const { termStats } = input;
  if (termStats.documents === 0 || input.context.length === 0) return [];
  const haystack = haystackOf(input.context);
  const rare = (word: string) => {
    const count = termStats.frequencies.get(termOf(word)) ?? 0;
    return count > 0 && count < genericFrom(termStats.documents);
  };
  // A name counted whole (a qualified name, "http.postBuffer", one word to the index; a code name
  // or one hyphenated beside a letter): its own words may be common ("http") or in no passage on
  // their own ("postbuffer").
  const rareWhole = (name: string) => {
    const count = termStats.codeNames?.get(normalise(name)) ?? 0;
    return count > 0 && count < genericFrom(termStats.documents);
  };
  const unread = namesIn(input.question)
    .map((name) => ({ name, words: nameParts(name), whole: rareWhole(name) }))
    .filter(({ name, words, whole }) => {
      if (words.length === 0 || haystack.includes(normalise(name))) return false;
      return whole || (words.every(rare) && !words.some((w) => haystack.includes(w)));
    });
  if (unread.length === 0) return [];
  const seen = new Set(input.context.map((m) => m.chunkId));
  const found: ContextMatch[] = [];
  await withWorkspace(db, input.workspaceId, async (tx) => {
    for (const { name, words, whole } of unread) {
      const queryText = whole ? name : words.join(' ');
      const matches = await matchArtifacts(tx, { workspaceId: input.workspaceId, audience: input.audience, queryText, matchCount: KEEP });
      for (const m of matches) {
        if (found.length >= KEEP || seen.has(m.chunkId)) continue;
        seen.add(m.chunkId);
        found.push({ ...m, matchedBy: ['keyword'] });
      }
    }
  });
  return found;
}
