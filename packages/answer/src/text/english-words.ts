import fs from 'node:fs';
import wordListPath from 'word-list';

let words: ReadonlySet<string> | undefined;

// Parts of a compound ("subfolders" = "sub" + "folders") are at least this long, so that a name
// is not explained away as two scraps ("numpy" is not "num" + "py").
const MIN_PART = 3;

/**
 * Is this lower-case word English (a dictionary word, or two glued together)? A word that is not,
 * and that no saved passage holds, is a name the asker knows and the workspace does not
 * ("smtplib", "tkinter"). The list (about 275,000 words) is read on first use only.
 */
export function isEnglishWord(word: string): boolean {
  words ??= new Set(fs.readFileSync(wordListPath, 'utf8').split('\n'));
  if (words.has(word)) return true;
  for (let cut = MIN_PART; cut <= word.length - MIN_PART; cut++) {
    if (words.has(word.slice(0, cut)) && words.has(word.slice(cut))) return true;
  }
  return false;
}
