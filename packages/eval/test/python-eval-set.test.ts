import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { normaliseForMatch } from '../src/answer-scoring.ts';
import { parseQuestions } from '../src/parse-questions.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const questions = parseQuestions(readFileSync(path.join(root, 'eval/python-docs.jsonl'), 'utf8'), 'python-docs.jsonl');
const pages = readFileSync(path.join(root, 'eval/python-docs.pages.txt'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));
// Where Debian's python3.11-doc installs the HTML (.ci/provision-eval-corpus.sh installs it).
const htmlRoot = '/usr/share/doc/python3.11/html';
const corpusInstalled = existsSync(path.join(htmlRoot, 'library/json.html'));

describe('eval/python-docs.jsonl', () => {
  const answerable = questions.filter((q) => q.answerable);

  it('has at least 100 questions: about half paraphrases, the rest exact, at least 10 unanswerable', () => {
    expect(questions.length).toBeGreaterThanOrEqual(100);
    const count = (kind: string) => questions.filter((q) => q.kind === kind).length;
    expect(count('exact') + count('paraphrase') + count('unanswerable')).toBe(questions.length);
    expect(Math.abs(count('paraphrase') - questions.length / 2)).toBeLessThanOrEqual(questions.length * 0.05);
    expect(count('unanswerable')).toBeGreaterThanOrEqual(10);
    expect(questions.filter((q) => !q.answerable).every((q) => q.kind === 'unanswerable')).toBe(true);
  });

  it('gives every answerable question 1–3 gold strings and splits every kind in halves', () => {
    expect(answerable.every((q) => q.answers && q.answers.length >= 1 && q.answers.length <= 3)).toBe(true);
    for (const kind of ['exact', 'paraphrase', 'unanswerable']) {
      const ofKind = questions.filter((q) => q.kind === kind);
      const tune = ofKind.filter((q) => q.split === 'tune').length;
      expect(tune + ofKind.filter((q) => q.split === 'test').length).toBe(ofKind.length);
      expect(Math.abs(2 * tune - ofKind.length)).toBeLessThanOrEqual(1);
    }
  });

  it('expects only pages of the corpus list, and the list has 40–80 pages', () => {
    expect(pages.length).toBeGreaterThanOrEqual(40);
    expect(pages.length).toBeLessThanOrEqual(80);
    expect(answerable.flatMap((q) => q.expected_sources.filter((s) => !pages.includes(s)))).toEqual([]);
  });

  if (!corpusInstalled) {
    console.warn(`[python-docs corpus] not installed (${htmlRoot} is missing): the gold-string check is skipped; run bash .ci/provision-eval-corpus.sh`);
  }
  it.skipIf(!corpusInstalled)('finds every gold string on one of its expected pages, so a right answer can quote it', () => {
    const text = new Map(pages.map((p) => [p, normaliseForMatch(pageText(readFileSync(path.join(htmlRoot, p), 'utf8')))]));
    const missing = answerable.flatMap((q) =>
      (q.answers ?? []).filter((a) => !q.expected_sources.some((s) => text.get(s)?.includes(normaliseForMatch(a)))).map((a) => `${q.id}: ${a}`),
    );
    expect(missing).toEqual([]);
  });
});

/** The page's text, roughly as a reader sees it: tags dropped, character references decoded. */
function pageText(html: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
      if (ref.startsWith('#x') || ref.startsWith('#X')) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
      if (ref.startsWith('#')) return String.fromCodePoint(Number.parseInt(ref.slice(1), 10));
      return named[ref.toLowerCase()] ?? whole;
    });
}
