import { normalise, termOf } from './terms.ts';

// A term line: a name, optionally in code ticks, optionally followed by its type or parameters
// (a definition list's term, a signature: "`work_mem` (`integer`)", "`payload`").
const TERM_LINE = /^\s*[`*]*([\p{L}_][\p{L}\p{N}_.]*)[`*]*\s*(?:\(.*\))?\s*$/u;
// The same, with the name in code ticks: a definition list's term as documentation marks it up
// ("`payload`"), not a line of a program's output ("False", "Decimal('3.14')").
const CODE_TERM_LINE = /^\s*\**`([\p{L}_][\p{L}\p{N}_.]*)`\**\s*(?:\(.*\))?\s*$/u;
// A word of prose, not a code name: letters only, three or more.
const PLAIN_WORD = /^\p{L}{3,}$/u;

/** The name a term line defines, as written; undefined when the line is more than a name. */
export function termLineName(line: string): string | undefined {
  return TERM_LINE.exec(line)?.[1];
}

/** Is this token a plain word (one a term line may define and a page may use everywhere)? */
export function isPlainWord(token: string): boolean {
  return PLAIN_WORD.test(token);
}

/** The plain word a term line in code ticks defines ("`payload`", "`level` (String)"), as written. */
export function codeTermLineWord(line: string): string | undefined {
  const name = CODE_TERM_LINE.exec(line)?.[1];
  return name !== undefined && isPlainWord(name) ? name : undefined;
}

/** The term of a label that is one plain word in code ticks ("`payload`", "`level` (String)"). */
export function plainTermLineTerm(label: string): string | undefined {
  const name = codeTermLineWord(label);
  return name === undefined ? undefined : termOf(normalise(name));
}

/** A line that is only this word in code ticks, as codeTermLineWord reads it, in PostgreSQL's regular expressions (matched case-insensitively with ~*). */
export function wordTermLinePattern(word: string): string {
  return String.raw`(^|\n)[ \t]*\**\x60${word}\x60\**[ \t]*(\([^\n]*\))?[ \t]*(\n|$)`;
}
