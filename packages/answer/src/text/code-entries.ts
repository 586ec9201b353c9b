import { escapeRegExp } from './literals.ts';

/** Lines of one entry at most: its option line and the description indented under it. */
const MAX_ENTRY_LINES = 8;

/**
 * The entry of a command's help text that documents an option the question writes ("-i" in "What
 * is the default level for the -i option?"): the line that opens with that option, alone or
 * beside its other spellings ("-i --increment [<level>]", "-V, --version"), and the lines indented
 * under it, verbatim and fenced as a code block. Null when the block has no such line. Only
 * options count: a snake_case name inside code is a variable of an example, not an entry.
 */
export function namedEntry(code: string, names: readonly string[]): string | null {
  const options = names.filter((n) => n.startsWith('-'));
  if (options.length === 0) return null;
  const lines = code.split('\n');
  const patterns = options.map((o) => new RegExp(`^\\s*(?:-{1,2}[\\w-]+(?:,\\s*|\\s+))*${escapeRegExp(o)}(?![\\w-])`, 'i'));
  const opens = (line: string) => /^\s*-/.test(line) && patterns.some((p) => p.test(line));
  const at = lines.findIndex(opens);
  if (at < 0) return null;
  const first = lines[at] ?? '';
  const indent = first.length - first.trimStart().length;
  const entry = [first];
  for (const line of lines.slice(at + 1)) {
    if (line.trim() === '' || /^\s*(?:```|~~~)/.test(line) || line.length - line.trimStart().length <= indent || entry.length >= MAX_ENTRY_LINES) break;
    entry.push(line);
  }
  return ['```', ...entry, '```'].join('\n');
}
