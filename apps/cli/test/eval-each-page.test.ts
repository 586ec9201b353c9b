import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { templateDataDir } from './brain-process.ts';
import { runCli } from './run-cli.ts';

interface EachPageJson {
  eachPage: { workspaces: number };
  answers: { results: { id: string; pages: string[]; correct: boolean | null; grounded: boolean; cited: string[]; answer: string }[] };
}

/**
 * `brain eval --each-page`: every answerable question asked in a workspace of its own pages only, as
 * a newcomer who saved that page asks it, and each unanswerable one asked of every such workspace.
 * Two pages state the same setting's default differently; over both saved together one answer
 * must lose, page by page each is right and cites its own.
 */
describe('brain eval --each-page', () => {
  let dataDir = '';
  let corpus = '';
  let questions = '';
  beforeAll(async () => {
    dataDir = await templateDataDir('brain-each-page-');
    corpus = fs.mkdtempSync(path.join(os.tmpdir(), 'brain-each-page-corpus-'));
    fs.mkdirSync(path.join(corpus, 'guides'));
    fs.writeFileSync(path.join(corpus, 'alpha.md'), '# Alpha server\n\n## Request timeout\n\nThe request timeout of the server is 30 seconds by default. Raise it for slow clients.\n');
    fs.writeFileSync(path.join(corpus, 'guides', 'beta.md'), '# Beta server\n\n## Request timeout\n\nThe request timeout of the server is 90 seconds by default. Lower it behind a proxy.\n');
    questions = path.join(corpus, 'questions.jsonl');
    const lines = [
      { id: 'alpha-timeout', question: 'What is the default request timeout of the server?', expected_sources: ['alpha.md'], kind: 'exact', answers: ['30 seconds'], split: 'tune' },
      { id: 'beta-timeout', question: 'What is the default request timeout of the server?', expected_sources: ['guides/beta.md'], kind: 'exact', answers: ['90 seconds'], split: 'test' },
      { id: 'off-topic', question: 'What is a good recipe for lasagne?', expected_sources: [], kind: 'unanswerable', answerable: false, split: 'test' },
    ];
    fs.writeFileSync(questions, lines.map((l) => JSON.stringify(l)).join('\n'));
  }, 60_000);

  it('answers each question over only the pages it expects, each citing its own page', { timeout: 240_000 }, async () => {
    const run = await runCli(['eval', '--questions', questions, '--corpus', corpus, '--workspace', 'pages', '--answers', '--each-page', '--json'], { BRAIN_DATA_DIR: dataDir }, 180_000);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as EachPageJson;
    expect(report.eachPage.workspaces).toBe(2);
    // The unanswerable question is asked of each page, and each refuses it.
    expect(report.answers.results.map((r) => [r.id, r.pages, r.correct, r.grounded, r.cited])).toEqual([
      ['alpha-timeout', ['alpha.md'], true, true, ['alpha.md']],
      ['off-topic', ['alpha.md'], null, false, []],
      ['beta-timeout', ['guides/beta.md'], true, true, ['guides/beta.md']],
      ['off-topic', ['guides/beta.md'], null, false, []],
    ]);

    // The workspaces are named after their pages, not their order: a run of one half finds the one it needs.
    const again = await runCli(['eval', '--questions', questions, '--corpus', corpus, '--workspace', 'pages', '--answers', '--each-page', '--split', 'test'], { BRAIN_DATA_DIR: dataDir }, 180_000);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/over only the pages it expects, each unanswerable one over every such set \(1 workspace\)/);
    expect(again.stdout).toMatch(/extractive\s+test\s+all\s+1\s+1\s+1\.000/);
  });

  it('says what to do when asked without a corpus, or when an expected page is no file of it', { timeout: 120_000 }, async () => {
    const bare = await runCli(['eval', '--questions', questions, '--each-page'], { BRAIN_DATA_DIR: dataDir });
    expect(bare.code).toBe(1);
    expect(bare.stderr).toMatch(/--each-page .*\n\s+next: Give it with --corpus <dir> and --answers\./);

    const wrong = path.join(corpus, 'wrong.jsonl');
    fs.writeFileSync(wrong, JSON.stringify({ id: 'gone', question: 'What is the timeout?', expected_sources: ['gamma.md'], kind: 'exact', answers: ['1 second'] }));
    const missing = await runCli(['eval', '--questions', wrong, '--corpus', corpus, '--workspace', 'pages', '--answers', '--each-page'], { BRAIN_DATA_DIR: dataDir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Question "gone" expects gamma.md, which no file of the corpus folder is.');
  });
});
