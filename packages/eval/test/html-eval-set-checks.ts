import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { closeSharedExtractor, extractDocument } from '@brain/extract';
import { afterAll, describe, expect, it } from 'vitest';
import { normaliseForMatch } from '../src/answer-scoring.ts';
import { parseQuestions } from '../src/parse-questions.ts';

const root = path.resolve(import.meta.dirname, '../../..');

/** An eval set over HTML pages that a Debian documentation package installs (see .ci/provision-eval-corpus.sh). */
export interface HtmlEvalSet {
  /** `python-docs`: the set is eval/<name>.jsonl, its page list eval/<name>.pages.txt. */
  name: string;
  /** The Debian package that installs the pages. */
  debianPackage: string;
  /** Where that package installs the HTML; the list's paths are relative to it. */
  htmlRoot: string;
  /** How the gold-string check reads a page: as the product does (the default), or tags stripped. */
  readPage?: (html: Buffer, page: string) => Promise<string>;
}

/** A page's text as the product reads it when the page is saved. */
export async function extractedText(html: Buffer, page: string): Promise<string> {
  return (await extractDocument({ bytes: html, mimeType: 'text/html', fileName: page })).text;
}

/** A page's text with its tags dropped and character references decoded: quick, but not what the product reads. */
export function strippedText(html: Buffer): Promise<string> {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
  const text = html
    .toString('utf8')
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
      if (ref.startsWith('#x') || ref.startsWith('#X')) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
      if (ref.startsWith('#')) return String.fromCodePoint(Number.parseInt(ref.slice(1), 10));
      return named[ref.toLowerCase()] ?? whole;
    });
  return Promise.resolve(text);
}

/**
 * The checks every HTML eval set must pass: its size and mix of kinds, gold strings and halves, a
 * page list of 40–80 pages, and every gold string on one of its expected pages (read as the product
 * reads it unless the set says otherwise, normalised as answers are scored), so a right answer can quote it.
 */
export function describeHtmlEvalSet(set: HtmlEvalSet): void {
  const readPage = set.readPage ?? extractedText;
  const questions = parseQuestions(readFileSync(path.join(root, `eval/${set.name}.jsonl`), 'utf8'), `${set.name}.jsonl`);
  const pages = readFileSync(path.join(root, `eval/${set.name}.pages.txt`), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const missingPages = pages.filter((p) => !existsSync(path.join(set.htmlRoot, p)));
  const corpusInstalled = missingPages.length < pages.length;

  describe(`eval/${set.name}.jsonl`, () => {
    const answerable = questions.filter((q) => q.answerable);
    afterAll(() => closeSharedExtractor());

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

    it('expects only pages of the corpus list, and the list has 40–80 distinct pages', () => {
      expect(pages.length).toBeGreaterThanOrEqual(40);
      expect(pages.length).toBeLessThanOrEqual(80);
      expect(new Set(pages).size).toBe(pages.length);
      expect(answerable.flatMap((q) => q.expected_sources.filter((s) => !pages.includes(s)))).toEqual([]);
    });

    if (!corpusInstalled) {
      console.warn(
        `[${set.name} corpus] not installed (${set.htmlRoot} lacks the listed pages): the page and gold-string checks are skipped; run bash .ci/provision-eval-corpus.sh ${set.name} (installs ${set.debianPackage})`,
      );
    }
    it.skipIf(!corpusInstalled)(`finds every listed page in ${set.debianPackage}, and every gold string on one of its expected pages as the check reads it`, async () => {
      expect(missingPages).toEqual([]);
      // All at once: the shared extractor's sandbox pool runs as many as it has processes.
      const texts = await Promise.all(
        pages.map(async (page) => [page, normaliseForMatch(await readPage(readFileSync(path.join(set.htmlRoot, page)), page))] as const),
      );
      const text = new Map(texts);
      const missing = answerable.flatMap((q) =>
        (q.answers ?? []).filter((a) => !q.expected_sources.some((s) => text.get(s)?.includes(normaliseForMatch(a)))).map((a) => `${q.id}: ${a}`),
      );
      expect(missing).toEqual([]);
    });
  });
}
