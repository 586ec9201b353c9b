import { normalise, termOf } from './terms.ts';

/**
 * How askers say a thing → how documentation says it. A question in a user's words ("duplicate a
 * folder", "pause for two seconds", "every possible ordering") shares no word with the sentence
 * that answers it ("copy a directory tree", "sleep", "permutations"), and a lexical embedder and
 * full-text search both need a shared word. Each entry is a bet that the asker's phrase means the
 * documentation's words in any technical manual: general computing vocabulary only, no product's
 * own names, one direction (a page that says "folder" is not searched for as "directory").
 * Written from how manuals and questions are worded, some entries after reading the eval sets' tune
 * halves' misses, and measured on their test halves (docs/retrieval-and-evaluation.md, fifteenth
 * pass). A phrase matches by its words' stems, in order; a wrong bet costs a question elsewhere
 * ("crash" is a process dying in a logger's docs, not an exception), so add by evidence, not hope.
 */
const ENTRIES: readonly string[] = [
  // Files and folders
  'folder | folders | subfolder | subfolders → directory',
  'subfolder | subfolders | nested folders → subdirectory recursively',
  'duplicate | clone → copy',
  'unpack | unzip | decompress → extract',
  'zip up → archive compress',
  'scratch file | throwaway | temp file | temp folder → temporary',
  'disappears | disappear | vanish | vanishes | goes away → deleted removed',
  'current folder | working folder → current working directory',
  'home folder → home directory',
  // Processes and time
  'external program | another program | shell command | system command | external command → subprocess process command',
  'hangs | hang | hung | stuck | freezes | frozen | never finishes | never returns → timeout',
  'kill → terminate signal',
  'quit → exit',
  'pause | nap → sleep delay suspend',
  'in the background → background thread daemon',
  'at the same time | simultaneously | side by side → concurrently parallel',
  'every few seconds | periodically | every minute | every hour → interval schedule timer',
  'how long it took | stopwatch | time how long → elapsed timer',
  'time zone | timezones → timezone utc',
  "today's date → today date",
  'right now | current time | the time now → now current',
  // Switches, limits and everyday phrasings. A phrasal verb parts around its object ("turn it
  // off"): those forms are entries of their own, as a phrase matches its words in order.
  'turn off | turn it off | turn them off | switch off | switch it off | switch them off | shut off | opt out → disable',
  'turn on | turn it on | turn them on | switch on | switch it on | switch them on | opt in → enable',
  'get rid of | throw away → remove delete',
  'at least | no fewer than | lower limit | lower bound → minimum',
  'under the hood → internally implementation',
  'too many | goes over | go over | runs out of | run out of → exceed limit',
  'speed up | make faster | runs faster → performance',
  'hook up | wire up → connect register',
  'sign in | log in → login authenticate',
  'sign out | log out → logout',
  'by hand → manually',
  'stand for | stands for | short for → acronym abbreviation',
  'how big | how large | how small → size maximum',
  'how long can | how long may → length maximum',
  'spreadsheet → csv',
  // Output, messages and errors
  'screen → console terminal stdout output',
  'debug messages | diagnostic messages | status messages | progress messages → logging log',
  'error output → stderr standard error',
  'ignore | silence | swallow → suppress',
  'crash | crashes | blows up → exception error abort',
  'mistake | mistakes → error',
  'stack trace | call stack → traceback stack',
  // Text
  'uppercase | upper case | capital letters | all caps → upper',
  'lowercase | lower case | small letters → lower',
  'trim | whitespace at the ends → strip',
  'find and replace | swap out → replace substitute',
  'wildcard | wildcards → pattern glob match',
  'regex | regexes | regexp → regular expression',
  'web page | webpage | html page → html',
  // Collections and numbers
  'most often | most frequent | most popular | appear the most | most frequently → most common frequency count',
  'tally | count occurrences | how many times → count frequency counter',
  'remove duplicates | dedupe | deduplicate | unique values → unique distinct set',
  'every ordering | all orderings | every possible ordering | all arrangements | every arrangement | every order → permutations',
  'every combination | all combinations | all pairs | every pair → combinations',
  'running total | running totals | cumulative sum | prefix sum | running sum → accumulate cumulative',
  'flatten → chain flatten',
  'chunks | groups of | batches → batch chunk group',
  'lookup table | key value pairs | key-value → dictionary mapping',
  'first in first out | fifo → queue',
  'last in first out | lifo → stack',
  'random order | scramble → shuffle random',
  'pick at random | random item | random element | at random → random choice sample',
  'backwards | reverse order → reverse reversed',
  'biggest | largest → maximum largest',
  'smallest → minimum',
  'average → mean average',
  'middle value → median',
  'nearly equal | approximately equal | almost equal | close enough | roughly equal | nearly the same → close tolerance approximately',
  'round off → round',
  // Web and security
  'web server | serve files | over the web | over the network → http server serve',
  'download → fetch download request',
  'web address | web link → url',
  'unguessable | hard to guess | random token | secret token → secure random token cryptographically',
  'encrypt → encryption cipher',
  'fingerprint | checksum → hash digest checksum',
  'someone else | a stranger | from the internet | downloaded from | emailed me | sent me → untrusted trust',
  'iframe | iframes → frame',
  // Data and databases
  'auto increment | autoincrement | auto-increment | auto numbering | autonumber → serial identity sequence',
  'undo | revert → rollback',
  'upsert | insert or update → insert update conflict',
  'empty value | missing value | blank value → null',
  'export | back up | backup → dump backup export',
  'permission | permissions → privilege grant',
  // British spellings, for the many manuals written in American English ("colours" is not a
  // stem of "colors")
  'colour | colours | coloured | colouring → color colors colored',
  'behaviour | behaviours → behavior',
  'initialise | initialised | initialisation → initialize initialization',
  'serialise | serialised | serialisation → serialize serialization',
  'customise | customised | customisation → customize customization',
  'normalise | normalised | normalisation → normalize normalization',
  'optimise | optimised | optimisation → optimize optimization',
  'authorise | authorised | authorisation → authorize authorization',
  'recognise | recognised → recognize',
  'organise | organised → organize',
  'analyse | analysed → analyze',
  'licence | licences → license',
  'centre → center',
  'grey → gray',
];

interface Entry {
  /** Each phrase as stems, in order. */
  phrases: string[][];
  docWords: string[];
}

const TOKEN = /[\p{L}\p{N}_]+/gu;
const stemsOf = (text: string): string[] => [...normalise(text).matchAll(TOKEN)].map((m) => termOf(m[0]));

const VOCABULARY: readonly Entry[] = ENTRIES.map((line) => {
  const [said, written] = line.split('→');
  return {
    phrases: (said ?? '').split('|').map(stemsOf).filter((p) => p.length > 0),
    docWords: (written ?? '').trim().split(/\s+/).filter((w) => w.length > 0),
  };
});

function holdsPhrase(stems: readonly string[], phrase: readonly string[]): boolean {
  for (let i = 0; i + phrase.length <= stems.length; i++) {
    if (phrase.every((p, j) => stems[i + j] === p)) return true;
  }
  return false;
}

/** Each phrase of the vocabulary the question holds, with its entry, in the vocabulary's order. */
function* heldPhrases(stems: readonly string[]): Generator<{ entry: Entry; phrase: readonly string[] }> {
  for (const entry of VOCABULARY) for (const phrase of entry.phrases) if (holdsPhrase(stems, phrase)) yield { entry, phrase };
}

/**
 * The documentation's words for what the question says in a user's words, without those it
 * already holds; empty when none of its phrases is in the vocabulary.
 */
export function docWordsFor(question: string): string[] {
  const stems = stemsOf(question);
  const held = new Set(stems);
  const out: string[] = [];
  for (const { entry } of heldPhrases(stems)) {
    for (const word of entry.docWords) {
      if (held.has(termOf(normalise(word))) || out.includes(word)) continue;
      out.push(word);
    }
  }
  return out;
}

/**
 * The stems of the question's words that belong to a phrase the vocabulary knows as an asker's
 * ("scratch", "file" and "disappear" in "a scratch file that disappears"), each with the
 * documentation's words for that phrase ("temporary"; "deleted", "removed").
 */
export function askersWording(question: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { entry, phrase } of heldPhrases(stemsOf(question))) {
    for (const stem of phrase) out.set(stem, [...new Set([...(out.get(stem) ?? []), ...entry.docWords])]);
  }
  return out;
}

/**
 * What retrieval searches for: the question, then the documentation's words for its phrases. The
 * answerer, the coverage gate and the record keep the question as asked.
 */
export function searchTextOf(question: string): string {
  const extra = docWordsFor(question);
  return extra.length === 0 ? question : `${question}\n${extra.join(' ')}`;
}
