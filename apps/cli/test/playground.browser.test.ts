import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { loadConfig } from '@brain/config';
import { openDatabase, withService } from '@brain/db';
import { PLAYGROUND } from '@brain/discord';
import { describeBrowser, launchChromium, shot } from './browser.ts';

const BIN = fileURLToPath(new URL('../bin/brain.js', import.meta.url));

const ARTICLE = `<!doctype html><html><head><title>Deploy guide</title></head><body><article>
<h1>Deploy guide</h1>
<p>We deploy to production every Tuesday and Thursday afternoon, after the release review has signed off the changes.</p>
<p>Each production deploy needs two approvals from the owning team, and the on-call engineer watches the dashboards for thirty minutes afterwards.</p>
<h2>Rollbacks</h2>
<p>If error rates rise above one percent, the on-call engineer rolls back with the deploy tool and opens an incident in the incident channel.</p>
</article></body></html>`;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** `brain start` as a newcomer runs it: the real binary, embedded mode, a fresh data directory. */
async function startBrain(env: Record<string, string>): Promise<{ child: ChildProcess; playground: string; output: () => string }> {
  const child = spawn(process.execPath, [BIN, 'start'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const playground = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`brain start did not print the playground URL in 180 s:\n${output}`)), 180_000);
    const check = () => {
      const match = /playground: (http:\/\/\S+\/playground)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    child.on('exit', (code) => reject(new Error(`brain start exited with ${code}:\n${output}`)));
  });
  return { child, playground, output: () => output };
}

async function command(page: Page, text: string): Promise<void> {
  await page.fill('#input', text);
  await page.keyboard.press('Escape');
  await page.press('#input', 'Enter');
}

describeBrowser('the playground in a real browser (npm start, no accounts)', () => {
  let browser: Browser;
  let site: http.Server;
  let siteUrl = '';
  let brain: Awaited<ReturnType<typeof startBrain>>;
  let dataDir = '';

  beforeAll(async () => {
    site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as net.AddressInfo).port}/deploy-guide`;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'brain-playground-'));
    brain = await startBrain({ BRAIN_DATA_DIR: dataDir, PORT: String(await freePort()), BRAIN_ALLOW_PRIVATE_HOSTS: '127.0.0.1' });
    browser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    if (brain?.child.exitCode === null) {
      const exited = new Promise((resolve) => brain.child.once('exit', resolve));
      brain.child.kill('SIGTERM');
      await exited;
    }
    site?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('saves a page, answers about it with citations, and stores 👍', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(brain.playground);
    await page.waitForSelector('#connection.live');
    // Every state a message goes through, in order, as the page showed it.
    // (A script string: this package is typed for Node, not the DOM.)
    await page.evaluate(`(() => {
      const seen = (window.seenStates = []);
      new MutationObserver(() => {
        for (const li of document.querySelectorAll('li.message[data-author="bot"]')) {
          const state = li.id + ':' + li.dataset.state;
          if (!seen.includes(state)) seen.push(state);
        }
      }).observe(document.getElementById('messages'), { childList: true, subtree: true });
    })()`);

    await command(page, `/save ${siteUrl}`);
    await expect.poll(() => page.locator('#status-line').textContent()).toContain('→ 200 (deferred: “thinking…”)');
    const saved = page.locator('li.message[data-author="bot"]', { hasText: 'Saved' });
    await saved.waitFor({ timeout: 120_000 });
    expect(await saved.locator('.content').innerText()).toMatch(/^✅ Saved Deploy guide — \d+ passages? · http:\/\/127\.0\.0\.1:\d+\/deploy-guide/);
    expect(await saved.locator('.content em').innerText()).toBe('Deploy guide');
    const states = await page.evaluate<string[]>('window.seenStates');
    const savedId = await saved.getAttribute('id');
    expect(states).toContain(`${savedId}:thinking`);
    expect(states).toContain(`${savedId}:done`);
    await shot(page, 'playground-01-saved');

    await command(page, '/ask How often do we deploy to production?');
    const answer = page.locator('li.message[data-author="bot"]', { has: page.locator('.embed-title', { hasText: 'How often do we deploy' }) });
    await answer.waitFor({ timeout: 60_000 });
    const description = await answer.locator('.embed-description').first().innerText();
    expect(description).toMatch(/\[1\]/);
    expect(description).toMatch(/Tuesday and Thursday/);
    const source = answer.locator('.embed', { has: page.locator('.embed-title', { hasText: 'Sources' }) }).locator('a').first();
    expect(await source.innerText()).toBe('Deploy guide');
    expect(await source.getAttribute('href')).toBe(siteUrl);
    await expect.poll(() => answer.locator('button').allInnerTexts()).toEqual(['👍 Helpful', '👎 Not helpful', '📚 Sources']);
    await shot(page, 'playground-02-answer');

    await answer.locator('button', { hasText: 'Helpful' }).first().click();
    const thanks = page.locator('li.message.ephemeral', { hasText: 'Thanks' });
    await thanks.waitFor({ timeout: 30_000 });
    await shot(page, 'playground-03-feedback');

    // Issue 14: the member's page is sent no #staff message, so becoming the moderator fetches them.
    const staffLink = page.locator(`a[data-channel="${PLAYGROUND.staffChannelId}"]`);
    await page.selectOption('#persona', 'member');
    await expect.poll(() => staffLink.count()).toBe(0);
    await page.reload();
    await page.waitForSelector('#connection.live');
    await page.selectOption('#persona', 'moderator');
    await staffLink.click();
    await page.locator('li.message', { hasText: 'On-call rota for December' }).waitFor({ timeout: 10_000 });

    // The vote is on the answer's queries row: read it after brain start has let the database go.
    const exited = new Promise((resolve) => brain.child.once('exit', resolve));
    brain.child.kill('SIGTERM');
    await exited;
    const db = await openDatabase(loadConfig({ BRAIN_DATA_DIR: dataDir }, { cwd: process.cwd() }).database, { command: 'test' });
    try {
      const rows = await withService(db, (tx) => tx.query<{ question: string; feedback: string | null; surface: string }>('select question, feedback, surface from queries'));
      expect(rows).toEqual([{ question: 'How often do we deploy to production?', feedback: 'up', surface: 'playground' }]);
    } finally {
      await db.close();
    }
  }, 300_000);
});
