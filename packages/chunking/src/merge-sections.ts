import type { TokenCounter } from './estimate-tokens.ts';
import type { Section } from './parse-sections.ts';
import type { Piece } from './pieces.ts';

/** A section with its pieces already cut to the budget. */
export interface SectionPieces {
  section: Section;
  pieces: Piece[];
  tokens: number;
}

/** One passage's worth of consecutive small sections, or one section of any size. */
export interface SectionGroup {
  /** The heading path every section in the group shares (the section's own path for a group of one). */
  path: string[];
  members: SectionPieces[];
}

/**
 * Groups consecutive sections that fit in one passage together. Reference pages are full of
 * one-line sections (".url", ".method", ".ip" …); alone, each would be a passage of a dozen
 * words that says little to a reader and, being short, outranks longer passages that share a
 * word with a question. Together they are one passage under their common heading, each section's
 * own heading kept as a line. A section too large to share a passage is a group of its own.
 */
export function groupSections(sections: readonly SectionPieces[], maxTokens: number, counter: TokenCounter): SectionGroup[] {
  const groups: SectionGroup[] = [];
  let members: SectionPieces[] = [];
  let tokens = 0;
  const close = () => {
    if (members.length > 0) groups.push({ path: commonPath(members.map((m) => m.section.path)), members });
    members = [];
    tokens = 0;
  };
  for (const item of sections) {
    // Upper bound of the item's cost inside a group: its heading line with the full path.
    const cost = item.tokens + counter.count(headingLine(item.section, 0));
    const firstCost = members.length === 1 ? counter.count(headingLine((members[0] as SectionPieces).section, 0)) : 0;
    if (members.length > 0 && tokens + firstCost + cost <= maxTokens) {
      members.push(item);
      tokens += firstCost + cost;
      continue;
    }
    close();
    members = [item];
    tokens = item.tokens;
  }
  close();
  return groups;
}

/** The pieces of a group of several sections: each section's heading line (below the common path), then its pieces. */
export function groupPieces(group: SectionGroup, counter: TokenCounter): Piece[] {
  if (group.members.length === 1) return (group.members[0] as SectionPieces).pieces;
  const pieces: Piece[] = [];
  for (const member of group.members) {
    const line = headingLine(member.section, group.path.length);
    if (line) pieces.push({ text: line, tokens: counter.count(line), joiner: '\n\n', overlap: 'none' });
    // Beside its heading line, a heading-only section's text would say the heading twice.
    if (!(line && member.section.headingOnly)) pieces.push(...member.pieces);
  }
  return pieces;
}

/** "##### Properties › .url": the part of the section's path below `depth`, at its own markdown level. */
function headingLine(section: Section, depth: number): string {
  const rest = section.path.slice(depth);
  if (rest.length === 0) return '';
  const level = section.levels.at(-1) ?? 1;
  return `${'#'.repeat(level)} ${rest.join(' › ')}`;
}

function commonPath(paths: readonly string[][]): string[] {
  const [first, ...others] = paths;
  if (!first) return [];
  let n = first.length;
  for (const path of others) {
    let i = 0;
    while (i < n && i < path.length && path[i] === first[i]) i++;
    n = i;
  }
  return first.slice(0, n);
}
