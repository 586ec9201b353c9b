import { escapeRegExp } from './literals.ts';
import { normalise } from './terms.ts';

// A setting or parameter as code writes it, letters joined by underscores ("max_wal_senders",
// "fast_mode"), and a command-line option ("--jobs", "-k"). A word's own hyphen ("T-SQL",
// "read-only") does not start an option: the dash must follow a space, a quote or the start.
const SNAKE_CASE = /(?<![\p{L}\p{N}_])\p{L}[\p{L}\p{N}]*(?:_[\p{L}\p{N}]+)+(?![\p{L}\p{N}_])/gu;
const OPTION = /(?<=^|[\s"'`“‘(])--?\p{L}[\p{L}\p{N}]*(?:-[\p{L}\p{N}]+)*(?![\p{L}\p{N}_-])/gu;

/**
 * The names a question writes as code: snake_case identifiers and command-line options,
 * normalised, in order, at most once each. Such a name is one thing however its words read:
 * "fast_mode" is not the "fast mode" a page mentions in passing, nor part of
 * "pickle_fast_mode". A name of this shape that no passage writes is a setting or an option
 * the workspace does not have (coverage-gate.ts).
 */
export function codeNamesOf(question: string): string[] {
  const text = normalise(question);
  return [...new Set([...text.matchAll(SNAKE_CASE), ...text.matchAll(OPTION)].map((m) => m[0]))];
}

// A qualified name: words joined by dots ("http.postBuffer", "json.dumps", "pathlib.Path.home").
const DOTTED = /(?<![\p{L}\p{N}_.])[\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_][\p{L}\p{N}_]*)+(?![\p{L}\p{N}_])/gu;

/**
 * The qualified names a question writes, normalised, at most once each. PostgreSQL's parser
 * reads one as a host name ("http.postBuffer" is the one lexeme `http.postbuffer`), so its last
 * word alone ("postbuffer") is in no passage's index even where a page writes the whole name: it
 * is counted whole (`wholeNameRule`).
 */
export function dottedNamesOf(question: string): string[] {
  return [...new Set([...normalise(question).matchAll(DOTTED)].map((m) => m[0]))];
}

// A name hyphenated around a single letter ("T-SQL", "X-Forwarded-For").
const LETTERED = /(?<![\p{L}\p{N}_-])\p{L}+(?:-\p{L}+)+(?![\p{L}\p{N}_-])/gu;

/**
 * The names a question writes with a hyphen beside a single letter, normalised: a name's word
 * of one letter is no word to count ("T" of "T-SQL"), so what is left ("sql") is saved wherever
 * SQL is; the name is counted whole (`wholeNameRule`). Only a name with a capital: "e-mail"
 * is a word.
 */
export function letteredNamesOf(question: string): string[] {
  const names = [...question.matchAll(LETTERED)].map((m) => m[0]).filter((name) => /\p{Lu}/u.test(name) && name.split('-').some((part) => part.length === 1));
  return [...new Set(names.map(normalise))];
}

/** The command-line options a question writes ("--keep-index", "-k"), normalised. */
export function optionsOf(question: string): string[] {
  return codeNamesOf(question).filter((name) => name.startsWith('-'));
}

/**
 * The options a line names when it is only options, as a man page's or a help text's term line
 * writes one option's spellings ("-k, --keep-index, --no-keep-index", "--abbrev[=<n>]",
 * "-S<string>", "--[no-]verify"); none for any other line ("-k keeps the index.").
 */
export function optionTermNames(line: string): string[] {
  const text = normalise(line).replace(/[`*]/g, '').trim();
  if (!text.startsWith('-') || text.length > 160) return [];
  // The arguments an option takes, and "[no-]" before its name, are not names.
  const bare = text.replace(/\[no-\]/g, '').replace(/\[[^\]]*\]|<[^>]*>|=\S*/g, '');
  const names = bare.split(/\s*,\s*|\s+/).filter((part) => part !== '');
  return names.length > 0 && names.every((name) => TERM_OPTION.test(name)) ? names : [];
}

const TERM_OPTION = /^--?[\p{L}\p{N}][\p{L}\p{N}-]*$/u;

/**
 * A line that may be this option's term line ("-k, --keep-index, --no-keep-index"), as a
 * PostgreSQL regular expression: a line that starts with an option and writes this one whole.
 * optionTermNames decides; this only finds the candidates in the database.
 */
export function optionTermLinePattern(option: string): string {
  return `(^|\n)[ \t]*(-[^\n]*[^[:alnum:]_-])?${escapeRegExp(option)}($|[^[:alnum:]_-])`;
}

/** Does the text write this code name whole? A qualifier before it ("pickle.fast_mode") is allowed. */
export function writesCodeName(text: string, name: string): boolean {
  return codeNameExpression(name).test(normalise(text));
}

function codeNameExpression(name: string): RegExp {
  const edge = name.startsWith('-') ? '[\\p{L}\\p{N}_-]' : '[\\p{L}\\p{N}_]';
  return new RegExp(`(?<!${edge})${escapeRegExp(name)}(?!${edge})`, 'u');
}

/**
 * How the workspace's count finds a code name: PostgreSQL's parser reads "Pickler.fast_mode" as
 * the host name "pickler.fast" and the word "mode", so the index is asked for the name's last
 * word alone, which every way of writing it keeps, and writesCodeName's rule, as a PostgreSQL
 * regular expression (no Unicode classes there), keeps the passages that write it whole.
 */
export const codeNameRule = {
  parsed: (name: string): string => name.split(/[-_]+/).at(-1) ?? '',
  pattern: (name: string): string => {
    const not = name.startsWith('-') ? '[^[:alnum:]_-]' : '[^[:alnum:]_]';
    return `(^|${not})${escapeRegExp(name)}($|${not})`;
  },
};

/**
 * How the workspace's count finds a name counted whole (dottedNamesOf, letteredNamesOf): parsed
 * whole, as the index parsed the pages that write it, and kept where written whole (a qualifier
 * before it allowed, as for code names).
 */
export const wholeNameRule = {
  parsed: (name: string): string => name,
  pattern: codeNameRule.pattern,
};
