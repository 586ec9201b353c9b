import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedLocally } from '@brain/embeddings';
import { startFakeOpenAI, type FakeOpenAI } from '@brain/testkit';
import { templateDataDir } from './brain-process.ts';
import { runCli } from './run-cli.ts';

interface AnswerSummary {
  answerer: string;
  split: string;
  kind: string;
  answerable: number;
  unanswerable: number;
  accuracy: number | null;
  wronglyRefused: number | null;
  refusedUnanswerable: number | null;
}
interface EvalJson {
  answers: { answerers: string[]; summary: AnswerSummary[]; skipped: unknown[]; results: { id: string; answerer: string; answer: string }[] };
}

/**
 * With a chat model configured, `brain eval --answers` measures it beside the extractive answerer,
 * through the same `ask`. The chat model is the fake OpenAI at the network edge: it states the
 * fact for one question, a wrong one for another, and declines the rest.
 */
describe('brain eval --answers with a chat model configured', () => {
  let openai: FakeOpenAI;
  let dataDir = '';
  let dir = '';
  beforeAll(async () => {
    dataDir = await templateDataDir('brain-eval-chat-');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brain-eval-chat-corpus-'));
    fs.mkdirSync(path.join(dir, 'docs'));
    fs.writeFileSync(path.join(dir, 'docs/limits.md'), '# Limits\n\nThe bodyLimit option caps request bodies. Its default is 1048576 bytes.\n');
    fs.writeFileSync(path.join(dir, 'docs/testing.md'), '# Testing\n\nUse inject to send fake requests to the server in tests, without a port.\n');
    fs.writeFileSync(
      path.join(dir, 'questions.jsonl'),
      [
        { id: 'body', question: 'What is the default bodyLimit?', expected_sources: ['docs/limits.md'], kind: 'exact', answers: ['1048576 bytes'], split: 'tune' },
        { id: 'inject', question: 'How do I test with inject without a port?', expected_sources: ['docs/testing.md'], kind: 'exact', answers: ['inject'], split: 'test' },
        { id: 'made-up', question: 'What does the bodyLimit option teleportMode do?', kind: 'unanswerable', answerable: false, split: 'test' },
      ]
        .map((q) => JSON.stringify(q))
        .join('\n'),
    );
    // The local embedder's vectors, so texts that share words are alike (the default fake's are random).
    openai = await startFakeOpenAI({
      vectorFor: (input) => Array.from(embedLocally(input)),
      chat: (body) => {
        const user = JSON.stringify(body.messages.filter((m) => m.role === 'user'));
        if (user.includes('teleportMode')) return "I don't know from the saved sources.";
        if (user.includes('default bodyLimit')) return 'The default bodyLimit is 1048576 bytes [1].';
        return 'Run the server on port 3000 [1].';
      },
    });
  });
  afterAll(async () => {
    await openai.close();
  });

  it('scores the chat answerer the same way, beside the extractive one, and skips nothing', { timeout: 300_000 }, async () => {
    const env = { BRAIN_DATA_DIR: dataDir, OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: 'sk-test', EMBEDDING_MODEL: 'text-embedding-3-small', CHAT_MODEL: 'gpt-fake' };
    const run = await runCli(['eval', '--questions', path.join(dir, 'questions.jsonl'), '--corpus', path.join(dir, 'docs'), '--answers', '--json'], env, 240_000);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = (JSON.parse(run.stdout) as EvalJson).answers;
    expect(report.answerers).toEqual(['extractive', 'chat']);
    expect(report.skipped).toEqual([]);
    const chat = report.summary.find((r) => r.answerer === 'chat' && r.split === 'all' && r.kind === 'all');
    expect(chat).toMatchObject({ answerable: 2, unanswerable: 1, accuracy: 0.5, wronglyRefused: 0, refusedUnanswerable: 1 });
    expect(report.results.find((r) => r.answerer === 'chat' && r.id === 'body')?.answer).toContain('1048576 bytes');
    expect(openai.chatCalls.length).toBeGreaterThanOrEqual(2);
    expect(openai.chatCalls.every((c) => c.model === 'gpt-fake')).toBe(true);
  });
});
