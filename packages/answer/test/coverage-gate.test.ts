import { describe, expect, it } from 'vitest';
import { missingTerms, namesIn } from '../src/coverage-gate.ts';
import type { TermStats } from '../src/text/term-weights.ts';
import { termOf } from '../src/text/terms.ts';
import type { Passage } from '../src/types.ts';
import { workspaceCounts } from './term-stats.ts';

const passages: Passage[] = [
  { n: 1, title: 'pathlib', url: null, heading: 'Methods', content: 'Path.absolute() makes the path absolute. Call reply.getResponseTime() for timing.' },
];

/** Workspace counts: every word in 10 of 500 passages, except those listed as absent (0). */
function stats(question: string, absent: readonly string[]): TermStats {
  const frequencies = new Map<string, number>();
  for (const m of question.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) frequencies.set(termOf(m[0]), absent.includes(m[0]) ? 0 : 10);
  return { documents: 500, frequencies, cap: 20 };
}

describe('missingTerms', () => {
  it('names a product, setting or method that no saved passage holds', () => {
    expect(missingTerms('What does pathlib.Path.teleport() return?', passages, stats('What does pathlib.Path.teleport() return?', ['teleport']))).toEqual([
      'pathlib.Path.teleport',
    ]);
    const q = 'What is the maximum payload size of a NOTIFY message?';
    expect(missingTerms(q, passages, stats(q, ['notify']))).toEqual(['NOTIFY']);
    const s = 'How do I turn on the `max_parallel_flux` setting?';
    expect(missingTerms(s, passages, stats(s, ['max_parallel_flux']))).toEqual(['max_parallel_flux']);
  });

  it('names a product the workspace mentions only in passing, in no passage beside what is asked of it', () => {
    const manual: Passage[] = [
      { n: 1, title: 'LIMIT and OFFSET', url: null, heading: 'Compatibility', content: 'LIMIT and OFFSET are PostgreSQL-specific syntax, also used by MySQL.' },
      { n: 2, title: 'Connections', url: null, heading: 'port', content: 'The TCP port the server listens on; 5432 by default.' },
      { n: 3, title: 'COALESCE', url: null, heading: 'COALESCE', content: 'This function provides capabilities similar to IFNULL, which is used in some other database systems.' },
    ];
    const counts = workspaceCounts(1143, { default: 200, port: 12, mysql: 1, ifnull: 1, replaces: 30, database: 40, systems: 20, coalesce: 9 }, 46);
    expect(missingTerms('What is the default port of MySQL?', manual, counts)).toEqual(['MySQL']);
    // Beside a word the question rests on: what it asks about.
    expect(missingTerms('What replaces IFNULL from other database systems?', manual, counts)).toEqual([]);
    // Paired in a passage's heading, or the asker's own: not missing.
    const shell: Passage[] = [{ n: 1, title: 'debug', url: null, heading: 'Windows command prompt notes › PowerShell', content: 'PowerShell uses different syntax to set environment variables.' }];
    const readme = workspaceCounts(64, { set: 9, debug: 40, variable: 6, windows: 2, powershell: 1, version: 10, cli: 1, switches: 1 }, 3);
    expect(missingTerms('How do I set the DEBUG variable in Windows PowerShell?', shell, readme)).toEqual([]);
    expect(missingTerms('Which switches print my CLI version?', shell, readme)).toEqual([]);
    expect(missingTerms('Which switches print the CLI version?', shell, readme)).toEqual(['CLI']);
    // Named in more passages than a passing mention, or in a workspace of a few passages: not decided here.
    expect(missingTerms('What is the default port of MySQL?', manual, { ...counts, frequencies: new Map([...counts.frequencies, [termOf('mysql'), 3]]) })).toEqual([]);
    expect(missingTerms('What is the default port of MySQL?', manual, workspaceCounts(12, { default: 3, port: 2, mysql: 1 }))).toEqual([]);
  });

  it('names a product in passing that is all the question asks about, unless a section is named for it', () => {
    // Python's json page, saved alone: YAML only in a note; "parse" and "files" on most passages.
    const page: Passage[] = [
      { n: 1, title: 'json', url: null, heading: 'json › Basic Usage', content: 'json.load(fp) deserializes fp, a file containing a JSON document, to a Python object.' },
      { n: 2, title: 'json', url: null, heading: 'json', content: 'The JSON produced by this module is also a subset of YAML 1.0 and 1.1.' },
    ];
    const counts = workspaceCounts(26, { parse: 9, files: 8, yaml: 1 }, 3);
    expect(missingTerms('How do I parse YAML files?', page, counts)).toEqual(['YAML']);
    const section: Passage[] = [{ n: 1, title: 'json', url: null, heading: 'json › YAML', content: 'The JSON produced by this module is also a subset of YAML 1.0 and 1.1.' }];
    expect(missingTerms('How do I parse YAML files?', section, counts)).toEqual([]);
    expect(missingTerms('How do I parse my YAML files?', page, counts)).toEqual([]);
  });

  it('answers despite one name in nothing saved when it is an aside of a long question that a retrieved sentence answers', () => {
    // Python's csv page saved alone: it never says "Windows", and says how to open the file.
    const page: Passage[] = [
      { n: 1, title: 'csv', url: null, heading: 'csv › Module Contents', content: 'If csvfile is a file object, it should be opened with newline=\'\'. Blank lines appear between rows when a file is written without it.' },
    ];
    const counts = workspaceCounts(46, { write: 12, comma: 3, separated: 5, file: 14, windows: 0, blank: 3, lines: 12, rows: 12, pass: 12, opening: 12 }, 3);
    const long = 'When I write a comma-separated file on Windows I get blank lines between rows. What should I pass when opening the file?';
    expect(missingTerms(long, page, counts)).toEqual([]);
    // The same name without a sentence holding three of the other words: what was found is not about it.
    const unrelated: Passage[] = [{ n: 1, title: 'csv', url: null, heading: 'csv', content: 'The csv module implements classes to read and write tabular data. Each row is a list.' }];
    expect(missingTerms(long, unrelated, counts)).toEqual(['Windows']);
    // A short question is about each name it writes; and two names in nothing saved are never an aside.
    const short = 'How do I skip a test on Windows?';
    expect(missingTerms(short, page, workspaceCounts(46, { skip: 2, test: 5, windows: 0 }, 3))).toEqual(['Windows']);
    const two = 'When I write a comma-separated file on Windows with Excel I get blank lines between rows. What should I pass when opening the file?';
    expect(missingTerms(two, page, workspaceCounts(46, { write: 12, comma: 3, separated: 5, file: 14, windows: 0, excel: 0, blank: 3, lines: 12, rows: 12, pass: 12, opening: 12 }, 3))).toEqual(['Windows', 'Excel']);
  });

  it('names a setting or an option written as code that no passage writes whole, though its words are saved', () => {
    const prose: Passage[] = [{ n: 1, title: 'pickle', url: null, heading: 'Pickler', content: 'Enable fast mode if set to a true value. json.dumps() serialises obj.' }];
    // Every word of the question is saved; how many passages write each code name whole is counted apart.
    const counted = (question: string, codeNames: Record<string, number>): TermStats => ({ ...stats(question, []), codeNames: new Map(Object.entries(codeNames)) });
    const arg = 'What does the Fast_Mode argument of json.dumps do?';
    expect(missingTerms(arg, prose, counted(arg, { fast_mode: 0 }))).toEqual(['Fast_Mode']);
    // Written whole in a retrieved passage, though the workspace's count says otherwise: not missing.
    expect(missingTerms(arg, [{ ...prose[0]!, content: 'Set pickle.fast_mode to skip the memo.' }], counted(arg, { fast_mode: 0 }))).toEqual([]);
    // A name hyphenated beside one letter: its other words are saved ("SQL"), the name is not.
    const tsql = 'How do I write a stored procedure in T-SQL?';
    expect(missingTerms(tsql, prose, counted(tsql, { 't-sql': 0 }))).toEqual(['T-SQL']);
    expect(missingTerms(tsql, prose, counted(tsql, { 't-sql': 2 }))).toEqual([]);
    const header = 'How do I log my X-Trace-Id header?';
    expect(missingTerms(header, prose, counted(header, { 'x-trace-id': 0 }))).toEqual([]);
    expect(missingTerms(tsql, [{ ...prose[0]!, content: 'Functions written in T-SQL port with care.' }], counted(tsql, { 't-sql': 0 }))).toEqual([]);
    const flag = 'What does the --turbo flag of the python command do?';
    expect(missingTerms(flag, prose, counted(flag, { '--turbo': 0 }))).toEqual(['--turbo']);
    // Saved somewhere, or never counted: not missing.
    expect(missingTerms(flag, prose, counted(flag, { '--turbo': 2 }))).toEqual([]);
    expect(missingTerms(flag, prose, stats(flag, []))).toEqual([]);
    // A name the asker makes for their own program or schema is in no manual, and the question
    // may well be answered all the same.
    const own = 'How do I add a --dry-run option with argparse?';
    expect(missingTerms(own, prose, counted(own, { '--dry-run': 0 }))).toEqual([]);
    const column = 'What should the default of my order_total column be?';
    expect(missingTerms(column, prose, counted(column, { order_total: 0 }))).toEqual([]);
    // What makes a name the asker's comes before it; after it, the word says what the name does.
    const verbAfter = 'How does the MODEL_SOFT_DELETE_DEFAULT setting make delete() hide rows?';
    expect(missingTerms(verbAfter, prose, counted(verbAfter, { model_soft_delete_default: 0 }))).toEqual(['MODEL_SOFT_DELETE_DEFAULT']);
    // Nor does such a name count among the question's words in nothing saved: asked about as the
    // asker's own, half of this question is not missing; asked about as it is, it is.
    const index = 'How do I index my flux_total?';
    expect(missingTerms(index, prose, { ...stats(index, ['flux_total']), codeNames: new Map([['flux_total', 0]]) })).toEqual([]);
    expect(missingTerms('How do I index flux_total?', prose, stats('How do I index flux_total?', ['flux_total']))).toEqual(['flux_total']);
  });

  it('refuses on ordinary words only when at least half of the question is in nothing saved', () => {
    const offTopic = 'How long should sourdough bread proof before baking?';
    expect(missingTerms(offTopic, passages, stats(offTopic, ['sourdough', 'bread', 'proof']))).toEqual(['sourdough', 'bread', 'proof']);
    const userWords = 'How do I stop waiting for an external program that hangs forever?';
    expect(missingTerms(userWords, passages, stats(userWords, ['hangs']))).toEqual([]);
  });

  it('refuses when the words in nothing saved carry the question and no retrieved sentence holds the rest together', () => {
    // A workspace of 1,000 passages: "good" is in 26, "recipe" in 1, "lasagne" in none.
    const offTopic = 'What is a good recipe for lasagne?';
    const counts = workspaceCounts(1000, { good: 26, recipe: 1, lasagne: 0 }, 40);
    const plugins: Passage[] = [
      { n: 1, title: 'Plugins', url: null, heading: 'Plugins guide', content: 'Now you know how to write a good plugin. Tell us about it!' },
      { n: 2, title: 'Plugins', url: null, heading: 'Documenting a plugin', content: 'Good examples of plugin documentation are listed below.' },
    ];
    expect(missingTerms(offTopic, plugins, counts)).toEqual(['lasagne']);
    // A sentence with the rarest of the other words alone does not hold them together, however much
    // of their weight that word is: the migration guide's "recipe" is not about cooking.
    const migration: Passage[] = [...plugins, { n: 3, title: 'Migration guide', url: null, heading: 'Codemods', content: 'For information on the migration recipe, see the registry.' }];
    expect(missingTerms(offTopic, migration, counts)).toEqual(['lasagne']);
    // Two of them in one sentence do.
    const both: Passage[] = [...plugins, { n: 3, title: 'Migration guide', url: null, heading: 'Codemods', content: 'A good recipe for the migration is in the registry.' }];
    expect(missingTerms(offTopic, both, counts)).toEqual([]);
    // The asker's own word is absent and carries much of the question, but one retrieved sentence
    // holds the rest of it together: that sentence may well answer it.
    const own = 'How do I duplicate a whole folder?';
    const ownCounts = workspaceCounts(1000, { duplicate: 16, whole: 23, folder: 0 }, 40);
    const trees: Passage[] = [{ n: 1, title: 'shutil', url: null, heading: 'Directory operations', content: 'copytree() makes a whole duplicate of a directory tree.' }];
    expect(missingTerms(own, trees, ownCounts)).toEqual([]);
    // Without that sentence, the absent word carries the question.
    expect(missingTerms(own, [{ ...trees[0]!, content: 'The whole tree is walked once.' }], ownCounts)).toEqual(['folder']);
    // One absent word of the asker's own beside only generic ones ("program", "two", "seconds" in
    // reference docs about time) is their wording, not the subject: answered, not refused.
    const pause = 'How do I pause my program for two seconds?';
    const pauseCounts = workspaceCounts(1000, { pause: 0, program: 60, two: 55, seconds: 48 }, 40);
    const sleep: Passage[] = [{ n: 1, title: 'time', url: null, heading: 'Functions', content: 'time.sleep(secs) suspends execution of the calling thread for the given number of seconds.' }];
    expect(missingTerms(pause, sleep, pauseCounts)).toEqual([]);
    // Words the documentation's vocabulary knows as an asker's ("scratch file" → temporary,
    // "disappears" → deleted) are their wording, however much of the question they carry, when the
    // workspace holds the documentation's words (retrieval counts them too).
    const scratch = 'How do I get a scratch file that disappears by itself when I close it?';
    const scratchCounts = stats(scratch, ['scratch', 'disappears']);
    const saidOtherwise: TermStats = { ...scratchCounts, frequencies: new Map([...scratchCounts.frequencies, [termOf('temporary'), 8], [termOf('deleted'), 9]]) };
    expect(missingTerms(scratch, passages, saidOtherwise)).toEqual([]);
    expect(missingTerms(scratch, passages, scratchCounts)).toEqual(['disappears', 'scratch']);
    const cake = 'How do I get a chocolate cake that rises by itself when I bake it?';
    expect(missingTerms(cake, passages, stats(cake, ['chocolate', 'cake', 'rises', 'bake']))).not.toEqual([]);
  });

  it('in a small workspace, refuses on ordinary words only when two are in nothing saved and the rest of the question is common there', () => {
    // 120 passages: a word in 5 or more of them is common.
    const small = (counts: Record<string, number>) => workspaceCounts(120, counts, 5);
    const offTopic = 'How do I make a creamy risotto?';
    expect(missingTerms(offTopic, passages, small({ make: 9, creamy: 0, risotto: 0 }))).toEqual(['risotto', 'creamy']);
    // One word of the asker's own is missing by chance in so few passages.
    const pause = 'How do I make my program pause?';
    expect(missingTerms(pause, passages, small({ make: 9, program: 7, pause: 0 }))).toEqual([]);
    // A word the question shares with few passages is what it asks about, and those may answer it.
    const rare = 'How do I make a creamy risotto with the uuid column?';
    expect(missingTerms(rare, passages, small({ make: 9, creamy: 0, risotto: 0, uuid: 2, column: 9 }))).toEqual([]);
  });

  it('in a small workspace, refuses when most of the question is in nothing saved, unless a retrieved sentence holds two of its other words', () => {
    // One saved README of 64 passages: a word in 3 or more of them is common.
    const readme = (counts: Record<string, number>) => workspaceCounts(64, counts, 3);
    const cli: Passage[] = [{ n: 1, title: 'Readme', url: null, heading: 'Options', content: 'Options work well with subcommands. Use a variadic option for lists.' }];
    // "well" is in 2 passages, not common: most of the question is missing all the same.
    const garden = 'Which plants grow well in a shady garden?';
    expect(missingTerms(garden, cli, readme({ plants: 0, grow: 0, well: 2, shady: 0, garden: 0 }))).toEqual(['garden', 'plants', 'shady', 'grow']);
    // The asker's own words are most of the question, yet one retrieved sentence is on the
    // response body it asks about: answered.
    const bodies = 'A server sometimes sends me gigantic bodies. How do I cap how big a response can be?';
    const counts = readme({ server: 20, sometimes: 0, sends: 9, gigantic: 0, bodies: 8, cap: 0, big: 0, response: 30 });
    const limits: Passage[] = [{ n: 1, title: 'Client', url: null, heading: 'Options', content: 'maxResponseSize: the maximum length of the response body in bytes. Set to -1 to disable.' }];
    expect(missingTerms(bodies, limits, counts)).toEqual([]);
    // The same question against a sentence that holds only one of those words: refused.
    expect(missingTerms(bodies, [{ ...limits[0]!, content: 'Each response is read once.' }], counts)).toEqual(['sometimes', 'gigantic', 'big', 'cap']);
    // Two missing words of three, the third rare there too (in 2 of 64 passages): off-topic,
    // though no word of it is common.
    const risotto = 'How do I make a creamy risotto?';
    expect(missingTerms(risotto, cli, readme({ make: 2, creamy: 0, risotto: 0 }))).toEqual(['risotto', 'creamy']);
    // A handful of passages misses most everyday words: there, three missing words beside one
    // that is saved are the asker's wording.
    const few = workspaceCounts(4, { long: 0, refunds: 1, take: 0, customers: 0 }, 3);
    const refunds: Passage[] = [{ n: 1, title: 'Billing FAQ', url: null, heading: null, content: 'Refunds are processed within five business days of the request.' }];
    expect(missingTerms('How long do refunds take for customers?', refunds, few)).toEqual([]);
  });

  it('refuses when words in nothing saved carry half the question beside one informative word, whatever holds that word', () => {
    // 1,600 passages: "point" in 65 (generic), "high" in 59, "boiling", "water" and "altitude" in none.
    const offTopic = 'What is the boiling point of water at high altitude?';
    const counts = workspaceCounts(1600, { boiling: 0, point: 65, water: 0, high: 59, altitude: 0 }, 65);
    const random: Passage[] = [{ n: 1, title: 'random', url: null, heading: 'Real-valued distributions', content: 'Return a random floating point number N such that low <= N <= high.' }];
    expect(missingTerms(offTopic, random, counts)).toEqual(['altitude', 'boiling', 'water']);
    // The same sentence beside a question whose absent words are fewer (the asker's own wording):
    // answered, not refused.
    const ownWords = 'What is the highest floating point number I can get at random?';
    const ownCounts = workspaceCounts(1600, { highest: 59, floating: 20, point: 65, number: 65, get: 65, random: 30 }, 65);
    expect(missingTerms(ownWords, random, ownCounts)).toEqual([]);
    // Half the question in nothing saved: 1,143 passages, "time" in 46 (generic), "complexity" in
    // 20, "quicksort" in none. A sentence that is "complex" is not about it.
    const quicksort = 'What is the time complexity of quicksort?';
    const dates: Passage[] = [{ n: 1, title: 'Date/Time Functions', url: null, heading: null, content: 'Subtraction of dates and timestamps can also be complex.' }];
    expect(missingTerms(quicksort, dates, workspaceCounts(1143, { time: 46, complexity: 20, quicksort: 0 }, 46))).toEqual(['quicksort']);
    // Less than half: one odd word of the asker's beside the manual's subject and common words is
    // their wording ("tempfiles" beside "vacuum").
    const tempfiles = 'Where does SQLite keep its tempfiles during a vacuum?';
    const vacuum: Passage[] = [{ n: 1, title: 'VACUUM', url: null, heading: null, content: 'The VACUUM command works by copying the contents of the database into a temporary database file.' }];
    expect(missingTerms(tempfiles, vacuum, workspaceCounts(1143, { sqlite: 300, keep: 46, tempfiles: 0, vacuum: 12 }, 46))).toEqual([]);
  });

  it('in a large workspace, answers a question that is mostly the asker\'s own words when a retrieved sentence holds two of its other words', () => {
    const bodies = 'A server sometimes sends me gigantic bodies. How do I cap how big a response can be?';
    const counts = stats(bodies, ['sometimes', 'gigantic', 'cap', 'big']);
    const limits: Passage[] = [{ n: 1, title: 'Client', url: null, heading: 'Options', content: 'maxResponseSize: the maximum length of the response body in bytes.' }];
    expect(missingTerms(bodies, limits, counts)).toEqual([]);
    expect(missingTerms(bodies, passages, counts)).toEqual(['sometimes', 'gigantic', 'big', 'cap']);
  });

  it('names a lower-case word that is in no dictionary and nothing saved (a module or product name)', () => {
    const q = 'How do I send an email with an attachment using smtplib?';
    expect(missingTerms(q, passages, stats(q, ['smtplib']))).toEqual(['smtplib']);
    const tk = 'How do I add a button to a tkinter window?';
    expect(missingTerms(tk, passages, stats(tk, ['tkinter']))).toEqual(['tkinter']);
    // The asker's own English, even glued together, is not a name.
    const own = 'How do I copy a folder with all its subfolders?';
    // (Against a passage about copying folders: with nothing that holds the rest of the question
    // together, the absent word would carry it, a refusal of its own, tested above.)
    const trees: Passage[] = [{ n: 1, title: 'shutil', url: null, heading: 'Directory operations', content: 'copytree() will copy a folder and everything below it.' }];
    expect(missingTerms(own, trees, stats(own, ['subfolders']))).toEqual([]);
    // A misspelling no passage holds is named too, so the asker sees what to fix.
    const typo = 'How do I confgure the server?';
    expect(missingTerms(typo, passages, stats(typo, ['confgure']))).toEqual(['confgure']);
  });

  it('never refuses on a word a retrieved passage contains as written, or on a word PostgreSQL did not count', () => {
    const q = 'What replaced reply.getResponseTime() in v5?';
    // PostgreSQL indexes "reply.getResponseTime()" as one token: its count of the word is 0.
    expect(missingTerms(q, passages, stats(q, ['getresponsetime']))).toEqual([]);
    const uncounted: TermStats = { documents: 500, frequencies: new Map(), cap: 20 };
    expect(missingTerms('What does the Zorblax option do?', passages, uncounted)).toEqual([]);
  });

  it('finds a word as written only where a word starts: "ORM" is not in "format", "migration" is in "migrations"', () => {
    const migrations: Passage[] = [
      { n: 1, title: 'Future statements', url: null, heading: 'Migrations', content: 'The future statement eases migrations to a new format of the language.' },
    ];
    const orm = "How does Django's ORM handle migrations?";
    expect(missingTerms(orm, migrations, stats(orm, ['orm']))).toEqual(['ORM']);
    // Counted nowhere under the workspace's stemming, yet written in a retrieved passage: saved.
    const migration = 'How do I write a migration for the new format?';
    expect(missingTerms(migration, migrations, stats(migration, ['migration']))).toEqual([]);
  });

  it('never takes a contraction or a value for a missing name: "didn\'t", "March 31st", "10ms"', () => {
    // Each of these words is in nothing saved; the rest of each question is.
    const shrink = 'I deleted a lot of rows but the database file didn\'t get any smaller. Is that a bug?';
    expect(missingTerms(shrink, passages, stats(shrink, ['didn']))).toEqual([]);
    const date = 'What do I get if I add one month to March 31st, 2001 with the date functions?';
    expect(missingTerms(date, passages, stats(date, ['march', '31st', '2001']))).toEqual([]);
    const quantity = 'Can a lock wait be shorter than 10ms?';
    expect(missingTerms(quantity, passages, stats(quantity, ['10ms']))).toEqual([]);
    // A made-up name beside a value is still named.
    const made = 'What did the Frobnicator release of March 2001 change?';
    expect(missingTerms(made, passages, stats(made, ['frobnicator', 'march', '2001']))).toEqual(['Frobnicator']);
  });

  it('finds names by their shape, not by a list', () => {
    expect(namesIn('Does Django use the `DEBUG` flag or maxHeaderLinesPerSecond in v5.2?')).toEqual(
      expect.arrayContaining(['DEBUG', 'Django', 'maxHeaderLinesPerSecond', 'v5.2']),
    );
    expect(namesIn('How do I pause my program for two seconds?')).toEqual([]);
    expect(namesIn('What happens on March 31st with a 64MB cache?')).toEqual([]);
  });
});
