import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeHttpServer, startFakeOpenAI, textPdf, type FakeHttpServer, type FakeOpenAI } from '@brain/testkit';
import { templateDataDir } from './brain-process.ts';
import { runCli } from './run-cli.ts';

const article = `<!doctype html><html><head><title>Release process</title></head><body>
<nav>Home · Docs</nav><article><h1>Release process</h1>
<p>Releases are cut every second Tuesday by the on-call engineer, after the staging soak passes.</p>
<h2>Rollback</h2><p>To roll back, redeploy the previous tag with the deploy button; never revert on main.</p>
</article><footer>© Example</footer></body></html>`;

/** A paragraph long enough to be a passage of its own. */
function filler(topic: string): string {
  return Array.from({ length: 40 }, (_, i) => `Point ${i} about the ${topic} matters.`).join(' ');
}

function corpus(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brain-corpus-'));
  fs.mkdirSync(path.join(dir, 'guides'));
  fs.writeFileSync(path.join(dir, 'release.html'), article);
  fs.writeFileSync(path.join(dir, 'guides', 'onboarding.md'), `# Onboarding\n\n## First day\n\nNew engineers get a laptop on day one. ${filler('laptop')}\n\n## Access\n\nRequest VPN access from the IT desk. ${filler('vpn')}\n`);
  fs.writeFileSync(path.join(dir, 'handbook.pdf'), textPdf({ title: 'Handbook', pages: [['Expenses are reimbursed within 30 days.', 'Keep every receipt.']] }));
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'The office closes at 6pm on Fridays.');
  fs.writeFileSync(path.join(dir, 'photo.png'), 'not a document');
  return dir;
}

describe('brain save, embedded', () => {
  let openai: FakeOpenAI;
  let site: FakeHttpServer;
  let canary: FakeHttpServer;
  let dataDir = '';
  const env = () => ({ BRAIN_DATA_DIR: dataDir, OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: 'sk-test', EMBEDDING_MODEL: 'text-embedding-3-small' });

  beforeAll(async () => {
    dataDir = await templateDataDir('brain-save-');
    openai = await startFakeOpenAI();
    site = await startFakeHttpServer('site');
    site.on('GET', '/release', () => ({ headers: { 'content-type': 'text/html; charset=utf-8' }, body: article }));
    canary = await startFakeHttpServer('canary');
    canary.on('GET', '/', () => ({ body: 'secret' }));
  });
  afterAll(async () => {
    await Promise.all([openai.close(), site.close(), canary.close()]);
  });

  it('indexes a folder of HTML, PDF, markdown and text; a second save embeds nothing', { timeout: 600_000 }, async () => {
    const dir = corpus();
    const first = await runCli(['save', dir, '--wait', '--json'], env(), 180_000);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const saved = JSON.parse(first.stdout) as { target: string; status: string; passages: number; title: string }[];
    expect(saved.map((s) => path.relative(dir, s.target)).sort()).toEqual(['guides/onboarding.md', 'handbook.pdf', 'notes.txt', 'release.html']);
    expect(saved.every((s) => s.status === 'ready' && s.passages > 0)).toBe(true);
    expect(saved.find((s) => s.target.endsWith('release.html'))?.title).toBe('Release process');
    // A heading titles a markdown file; a source with no title of its own is cited by its file name.
    expect(saved.find((s) => s.target.endsWith('notes.txt'))?.title).toBe('notes.txt');
    expect(saved.find((s) => s.target.endsWith('onboarding.md'))?.title).toBe('Onboarding');
    const callsAfterFirst = openai.embeddingCalls.length;
    expect(callsAfterFirst).toBeGreaterThan(0);

    const sources = JSON.parse((await runCli(['sources', '--json'], env())).stdout) as { status: string; passages: number; source: string }[];
    expect(sources).toHaveLength(4);
    expect(sources.every((s) => s.status === 'ready' && s.passages > 0)).toBe(true);

    const second = await runCli(['save', dir, '--wait', '--json'], env(), 180_000);
    expect(second.code).toBe(0);
    expect((JSON.parse(second.stdout) as { status: string }[]).every((s) => s.status === 'ready')).toBe(true);
    expect(openai.embeddingCalls.length).toBe(callsAfterFirst);

    // An edited file embeds only its new passage; the unchanged one keeps its vector.
    fs.appendFileSync(path.join(dir, 'guides', 'onboarding.md'), `\n## Payroll\n\nPayroll runs on the 25th of each month. ${filler('payroll')}\n`);
    const third = await runCli(['save', path.join(dir, 'guides'), '--wait', '--json'], env(), 180_000);
    expect(third.code).toBe(0);
    expect(JSON.parse(third.stdout)[0]).toMatchObject({ created: false, status: 'ready' });
    const newInputs = openai.embeddingCalls.slice(callsAfterFirst).flatMap((c) => c.inputs);
    expect(newInputs.length).toBeGreaterThan(0);
    expect(newInputs.some((text) => text.includes('Payroll runs'))).toBe(true);
    expect(newInputs.some((text) => text.includes('laptop on day one'))).toBe(false);
    const after = JSON.parse((await runCli(['sources', '--json'], env())).stdout) as unknown[];
    expect(after).toHaveLength(4);
  });

  it('refuses private and metadata addresses before fetching anything, and exits non-zero', { timeout: 240_000 }, async () => {
    const result = await runCli(['save', `http://127.0.0.1:${canary.port}/`, 'http://169.254.169.254/latest/meta-data/', `http://[::ffff:127.0.0.1]:${canary.port}/`], env());
    expect(result.code).toBe(1);
    expect(result.stdout.match(/is not allowed/g)).toHaveLength(3);
    expect(result.stdout).toContain('FETCH_BLOCKED_ADDRESS');
    expect(canary.requests).toHaveLength(0);
  });

  it('fetches a private host only when the operator allows it', { timeout: 180_000 }, async () => {
    const result = await runCli(['save', `http://127.0.0.1:${site.port}/release`, '--wait', '--json'], { ...env(), BRAIN_ALLOW_PRIVATE_HOSTS: '127.0.0.1' }, 120_000);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)[0]).toMatchObject({ status: 'ready', title: 'Release process' });
    expect(site.requests.map((r) => r.path)).toContain('/release');
  });
});
