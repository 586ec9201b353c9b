import { describe, expect, it } from 'vitest';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import type { Passage } from '../src/types.ts';

// Python's json page says the same thing of ensure_ascii under two signatures.
const statement = 'If ensure_ascii is false, non-ASCII characters in the output are written as they are, not escaped.';
const under = (n: number, label: string, before: string): Passage => ({
  n,
  title: 'json — JSON encoder and decoder',
  url: null,
  heading: 'json — JSON encoder and decoder › Basic Usage',
  content: `${label}\n\n${before}\n\n${statement}`,
});

describe('a statement a page repeats under another label', () => {
  it('is quoted once', async () => {
    const passages = [
      under(1, '`json.dump(obj, fp, *, skipkeys=False, ensure_ascii=True)`', 'Serialize obj as a JSON formatted stream to fp.'),
      under(2, '`class json.JSONEncoder(*, skipkeys=False, ensure_ascii=True)`', 'Extensible JSON encoder for Python data structures.'),
    ];
    const answer = await createExtractiveAnswerer().answer({ question: 'What is output when ensure_ascii is false?', passages });
    expect(answer.text.split(statement)).toHaveLength(2);
  });

  it('is quoted under each label when it is a short line that only its label gives a meaning', async () => {
    const field = (n: number, name: string): Passage => ({
      n,
      title: 'Model field reference',
      url: null,
      heading: 'Model field reference › Field options',
      content: `\`Field.${name}\`\n\nDefault is \`False\`.`,
    });
    const answer = await createExtractiveAnswerer().answer({ question: 'What are the defaults of Field.null and Field.blank?', passages: [field(1, 'null'), field(2, 'blank')] });
    expect(answer.text).toContain('> `Field.null` [1]\n> Default is `False`. [1]');
    expect(answer.text).toContain('> `Field.blank` [2]\n> Default is `False`. [2]');
  });

  // git's merge, pull and rebase pages include one text on merge strategies; each page's passage
  // ends at another sentence, so a window from the second runs one sentence further.
  const strategies = (n: number, title: string, tail: string): Passage => ({
    n,
    title,
    url: null,
    heading: `${title} › MERGE STRATEGIES`,
    content: `ort\n\nThis is the default merge strategy when pulling or merging one branch. This strategy can only resolve two heads using a 3-way merge algorithm.${tail}`,
  });

  it('is quoted once when a longer window from another page would repeat the sentence it was chosen for, under the same label', async () => {
    const passages = [
      strategies(1, 'git-merge(1)', ''),
      strategies(2, 'git-rebase(1)', ' It has been reported to result in fewer merge conflicts.\n\nours\n\nThis option forces conflicting hunks to be auto-resolved cleanly.'),
    ];
    const answer = await createExtractiveAnswerer().answer({ question: 'What is the default merge strategy when merging one branch?', passages });
    expect(answer.text.split('This is the default merge strategy when pulling or merging one branch.')).toHaveLength(2);
  });

  it('is quoted again under another label, where the same sentence says something else', async () => {
    const handle = (n: number, name: string, device: string): Passage => ({
      n,
      title: 'subprocess — Subprocess management',
      url: null,
      heading: 'subprocess — Subprocess management › Windows Constants',
      content: `\`subprocess.${name}\`\n\nThe standard ${device} device. Initially, this is the active console screen buffer, \`CONOUT$\`.`,
    });
    const passages = [handle(1, 'STD_OUTPUT_HANDLE', 'output'), handle(2, 'STD_ERROR_HANDLE', 'error')];
    const answer = await createExtractiveAnswerer().answer({ question: 'What is the active console screen buffer initially?', passages });
    expect(answer.text).toContain('The standard output device.');
    expect(answer.text).toContain('The standard error device.');
  });
});
