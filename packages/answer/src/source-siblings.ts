import { withWorkspace, type ArtifactMatch, type AudienceFilter, type Database } from '@brain/db';
import { loadSourcePassages } from './queries/load-source-passages.ts';
import { optionsOf, optionTermLinePattern, optionTermNames } from './text/code-names.ts';
import { isSmallWorkspace, mostlyUnheld, weighQuestion, type TermStats } from './text/term-weights.ts';
import { codeTermLineWord, isPlainWord, termLineName, wordTermLinePattern } from './text/term-lines.ts';
import { normalise, terms } from './text/terms.ts';
import type { ContextMatch } from './types.ts';

export interface SiblingOptions {
  /** How many of the best-ranked sources are read further (default 3). */
  sources?: number;
  /** Passages added at most (default 2). */
  keep?: number;
  /** Passages of those sources the database hands over to be scored, at most (default 12). */
  readLimit?: number;
}

/** The further passages read: those that define a name the question asks about, and those that only score better. */
export interface SourceSiblings {
  defining: ContextMatch[];
  better: ContextMatch[];
}

// BM25's usual constants, over passages.
const K1 = 1.2;
const B = 0.75;

/**
 * The passages of the best sources that share the question's informative words better than every
 * retrieved passage does. Retrieval spreads its k over sources (each further passage of one source
 * counts 70 %), and the words of a question rarely single out the one passage of a long page that
 * states the fact: the page is found, that passage is not. So the answer also reads those sources'
 * other passages that hold the question's informative words (not the generic ones), scores them
 * and the retrieved ones alike (BM25, each word weighted by its rarity in the workspace), and adds
 * the few that define a name the question asks about or score above every retrieved passage. They
 * are passages this reply's audience may read, of sources retrieval already chose, and are cited
 * like any other.
 */
export async function sourceSiblings(
  db: Database,
  input: { workspaceId: string; audience: AudienceFilter; question: string; matches: readonly ArtifactMatch[]; termStats: TermStats },
  options: SiblingOptions = {},
): Promise<SourceSiblings> {
  const none: SourceSiblings = { defining: [], better: [] };
  if (input.matches.length === 0) return none;
  const { tokens, weights } = weighQuestion(input.question, input.termStats);
  const informative = tokens.filter((t) => !weights.generic(t.term));
  // An option the question writes ("--keep-index") is one name however generic its words are.
  const askedOptions = optionsOf(input.question);
  // In a page or a few, the word the page is about is generic by count: its term line still
  // defines it ("`payload`" › "…it must be shorter than 8000 bytes." on the NOTIFY page). Read only
  // when the retrieved passages miss most of what the question asks beyond the page's own words
  // ("maximum", "size"): where they hold it, "default ordering" is not about a `default` option.
  const labelWords = isSmallWorkspace(input.termStats) && mostlyUnheld(informative.map((t) => t.term), input.matches.map((p) => `${p.heading ?? ''} ${p.content}`), (t) => weights.weight(t)) ? tokens.filter((t) => weights.generic(t.term) && isPlainWord(t.token)) : [];
  if (informative.length === 0 && askedOptions.length === 0 && labelWords.length === 0) return none;
  const read = await withWorkspace(db, input.workspaceId, (tx) =>
    loadSourcePassages(tx, {
      workspaceId: input.workspaceId,
      audience: input.audience,
      artifactIds: [...new Set(input.matches.map((m) => m.artifactId))].slice(0, options.sources ?? 3),
      exceptChunkIds: input.matches.map((m) => m.chunkId),
      prefixes: [...new Set(informative.map((t) => prefixOf(t.term)))],
      termLines: [...askedOptions.map(optionTermLinePattern), ...labelWords.map((t) => wordTermLinePattern(normalise(t.token)))],
      limit: options.readLimit ?? 12,
    }),
  );
  if (read.length === 0) return none;

  const wanted = new Set(informative.map((t) => t.term));
  const words = [...input.matches, ...read].map((p) => terms(`${p.heading ?? ''} ${p.content}`));
  const averageLength = words.reduce((sum, w) => sum + w.length, 0) / words.length;
  const scores = words.map((w) => bm25(w, wanted, (t) => weights.weight(t), averageLength));
  const bar = Math.max(...scores.slice(0, input.matches.length));
  // A passage that defines a name the question asks about (a line that is only that name, as a
  // definition list's term or a signature: "`work_mem` (`integer`)", "`payload`", an option's
  // spellings "-k, --keep-index", or its own section's heading) states what the page says of it,
  // however much shorter passages that only mention it out-score it.
  const asked = new Set(informative.map((t) => normalise(t.token)));
  const labelled = new Set(labelWords.map((t) => normalise(t.token)));
  const scored = read.map((passage, i) => {
    const text = `${ownHeading(passage.heading)}\n${passage.content}`;
    return { passage, score: scores[input.matches.length + i] ?? 0, defines: definesName(text, asked, askedOptions), labels: labelsWord(text, labelled) };
  });
  const kept = scored
    .filter((x) => x.defines || x.labels || x.score > bar)
    .sort((a, b) => Number(b.defines) - Number(a.defines) || Number(b.labels) - Number(a.labels) || b.score - a.score)
    .slice(0, options.keep ?? 2)
    .map(({ passage, defines, labels }) => ({ defines: defines || labels, match: { ...passage, similarity: null, vectorRank: null, keywordRank: null, score: 0, matchedBy: ['source'] } satisfies ContextMatch }));
  return { defining: kept.filter((k) => k.defines).map((k) => k.match), better: kept.filter((k) => !k.defines).map((k) => k.match) };
}

/**
 * What the answer reads, in order: the best retrieved passage, then a further passage that defines
 * what the question names (it states the fact, where the other retrieved passages only touch it;
 * read last, the answerer's preference for better-ranked passages left it unquoted: "`level`
 * (String)" › "Default: `'info'`" under pino's other options), then the other retrieved passages,
 * then the further passages that only score better.
 */
export function withSiblings(matches: readonly ContextMatch[], siblings: SourceSiblings): ContextMatch[] {
  const [best, ...rest] = matches;
  return [...(best ? [best] : []), ...siblings.defining, ...rest, ...siblings.better];
}

/**
 * The passage's own section heading, in a Markdown reference an option's name and type ("API ›
 * options (Object) › `level` (String)"). Not the page's own title: every passage of a page titled
 * "NOTIFY" is not a definition of NOTIFY.
 */
function ownHeading(heading: string | null): string {
  const path = heading?.split(' › ') ?? [];
  return path.length > 1 ? (path.at(-1) ?? '') : '';
}

/** Does a line of the passage hold one of these words alone, as a term in code ticks ("`payload`")? */
function labelsWord(content: string, words: ReadonlySet<string>): boolean {
  if (words.size === 0) return false;
  return content.split('\n').some((line) => {
    const word = codeTermLineWord(line);
    return word !== undefined && words.has(normalise(word));
  });
}

function definesName(content: string, asked: ReadonlySet<string>, options: readonly string[]): boolean {
  return content.split('\n').some((line) => {
    // An option's term line ("-k, --keep-index, --no-keep-index") defines each of its spellings.
    if (options.length > 0 && optionTermNames(line).some((name) => options.includes(name))) return true;
    const name = termLineName(line);
    // "functools.lru_cache" defines "lru_cache" too: the question's words split at dots.
    return name !== undefined && asked.has(normalise(name).split('.').at(-1) ?? '');
  });
}

function bm25(words: readonly string[], wanted: ReadonlySet<string>, weight: (term: string) => number, averageLength: number): number {
  const tf = new Map<string, number>();
  for (const w of words) if (wanted.has(w)) tf.set(w, (tf.get(w) ?? 0) + 1);
  let score = 0;
  for (const [term, f] of tf) score += weight(term) * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * words.length) / Math.max(1, averageLength))));
  return score;
}

/**
 * What every word of a term's family starts with: the Porter stem, less the "i" it puts for a
 * final "y" ("copies" and "copy" are both "copi"; "cop" starts both). Identifiers stay whole.
 */
function prefixOf(term: string): string {
  return term.length > 3 && term.endsWith('i') && !/[_\d]/.test(term) ? term.slice(0, -1) : term;
}
