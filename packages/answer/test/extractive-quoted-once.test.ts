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
});
