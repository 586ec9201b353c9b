import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ask, createExtractiveAnswerer } from '@brain/answer';
import { loadConfig, type BrainConfig } from '@brain/config';
import { migrate, openDatabase, withService, type Database } from '@brain/db';
import { createLogger } from '@brain/observability';
import { reserveLoopbackPort } from '@brain/testkit';
import { startWebServer, type OnboardingDeps, type WebServer } from '@brain/web';
import { compose } from '../src/compose.ts';
import { wireDiscord, type DiscordWiring } from '../src/discord-wiring.ts';
import { runWorker, type RunningWorker } from '../src/services/run-worker.ts';
import { resolveWorkspace } from '../src/workspace.ts';
import { templateDataDir } from './brain-process.ts';
import { describeBrowser, launchChromium, shot } from './browser.ts';

const OWNER = 'operator@example.com';

const PAGES: Record<string, string> = {
  '/deploy-guide': `<!doctype html><html><head><title>Deploy guide</title></head><body><article><h1>Deploy guide</h1>
<p>We deploy to production every Tuesday and Thursday afternoon, after the release review has signed off the changes.</p>
<p>Each production deploy needs two approvals from the owning team, and the on-call engineer watches the dashboards for thirty minutes afterwards.</p>
</article></body></html>`,
  '/refunds': `<!doctype html><html><head><title>Refund policy</title></head><body><article><h1>Refund policy</h1>
<p>Customers can ask for a full refund within thirty days of purchase by writing to the billing team with their order number.</p>
<p>Refunds are paid back to the original card within five business days once the billing team approves them.</p>
</article></body></html>`,
};

/**
 * `brain start` in embedded mode, composed as start.ts does, with /ask answered by @brain/answer
 * (local embedder, extractive answerer) so the playground produces real telemetry rows.
 */
interface Running {
  config: BrainConfig;
  db: Database;
  onboarding: OnboardingDeps;
  web: WebServer;
  workspaceId: string;
  close(): Promise<void>;
}

async function startEmbedded(): Promise<Running> {
  const reserved = await reserveLoopbackPort();
  const port = reserved.port;
  const dataDir = await templateDataDir('brain-dashboard-');
  const config = loadConfig({ BRAIN_DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, BRAIN_ALLOW_PRIVATE_HOSTS: '127.0.0.1' }, { cwd: process.cwd() });
  expect(config.mode).toBe('embedded');
  const logger = createLogger({ level: 'warn' });
  const db = await openDatabase(config.database, { command: 'e2e' });
  await migrate(db);
  const app = compose(config, db, logger, { print: () => {} });
  const worker: RunningWorker = await runWorker(app);
  const onboarding = app.onboarding();
  const local = await resolveWorkspace(db, undefined);
  const embedder = app.embedder;
  const answerer = createExtractiveAnswerer();
  const discord: DiscordWiring = await wireDiscord({
    config,
    db,
    logger,
    localWorkspaceId: local.id,
    ask: (input) => ask({ db, embedder, answerer, logger }, { workspaceId: input.workspaceId, question: input.question, audience: input.audience, surface: input.surface, askedBy: input.askedBy, interactionId: input.interactionId, signal: input.signal }),
  });
  await reserved.release();
  const web = await startWebServer({ config, db, logger, onboarding, discord: discord.surface, playground: discord.playground }, { host: '127.0.0.1', port });
  // The local workspace has no Discord server to claim it through /install: its owner is set as a claim would.
  await withService(db, (tx) => tx.query('update workspaces set claim_email = $2, claimed_at = now() where id = $1', [local.id, OWNER]));
  return {
    config,
    db,
    onboarding,
    web,
    workspaceId: local.id,
    async close() {
      await Promise.all([web.close(), worker.stop()]);
      await Promise.all([discord.close(), onboarding.accounts.drain(), app.close()]);
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function command(page: Page, text: string): Promise<void> {
  await page.fill('#input', text);
  await page.keyboard.press('Escape');
  await page.press('#input', 'Enter');
}

const cardValue = (page: Page, id: string) => page.locator(`#${id} .n`).innerText();

describeBrowser('the dashboard in a real browser (embedded mode, playground traffic)', () => {
  let browser: Browser;
  let site: http.Server;
  let siteUrl = '';
  let app: Running;

  beforeAll(async () => {
    site = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGES[req.url ?? ''] ?? 'not found'));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as net.AddressInfo).port}`;
    app = await startEmbedded();
    browser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    site?.close();
  });

  it('shows playground /save and /ask with the database\'s figures; charts, a settings change, forget and restore', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();

    // Traffic: two saves and three questions in the playground, one answer marked helpful.
    await page.goto(`${app.config.publicUrl}/playground`);
    await page.waitForSelector('#connection.live');
    for (const [path, title] of [['/deploy-guide', 'Deploy guide'], ['/refunds', 'Refund policy']] as const) {
      await command(page, `/save ${siteUrl}${path}`);
      await page.locator('li.message[data-author="bot"]', { hasText: `Saved ${title}` }).waitFor({ timeout: 120_000 });
    }
    const questions = ['How often do we deploy to production?', 'How long do refunds take to reach the card?', 'Zebra quantum marmalade xylophone?'];
    for (const question of questions) {
      await command(page, `/ask ${question}`);
      await page.locator('li.message[data-author="bot"]', { has: page.locator('.embed-title', { hasText: question.slice(0, 20) }) }).waitFor({ timeout: 60_000 });
    }
    const first = page.locator('li.message[data-author="bot"]', { has: page.locator('.embed-title', { hasText: 'How often do we deploy' }) });
    await first.locator('button', { hasText: 'Helpful' }).first().click();
    await page.locator('li.message.ephemeral', { hasText: 'Thanks' }).waitFor({ timeout: 30_000 });
    await shot(page, 'dashboard-00-playground');

    // Log in through the login form and the dev outbox link.
    await page.goto(`${app.config.publicUrl}/dashboard`);
    await page.waitForURL(/\/login$/);
    await page.fill('#email', OWNER);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/login\/sent/);
    await app.onboarding.accounts.drain();
    await page.click('a[href="/dev/outbox"]');
    await page.locator('tr', { hasText: 'login' }).locator('a', { hasText: 'open link' }).first().click();
    await page.click('button[type=submit]');
    await page.waitForURL(/\/dashboard$/);
    const cookie = (await context.cookies()).find((c) => c.name === 'brain_dashboard');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/dashboard' });

    // The overview's figures are the database's.
    const [db] = await withService(app.db, (tx) =>
      tx.query<{ ready: number; passages: number; questions: number; unanswered: number; up: number; down: number }>(
        `select (select count(*)::int from artifacts where workspace_id = $1 and status = 'ready' and forgotten_at is null) as ready,
                (select count(*)::int from chunks where workspace_id = $1 and is_live) as passages,
                (select count(*)::int from queries where workspace_id = $1) as questions,
                (select count(*)::int from queries where workspace_id = $1 and not grounded) as unanswered,
                (select count(*)::int from queries where workspace_id = $1 and feedback = 'up') as up,
                (select count(*)::int from queries where workspace_id = $1 and feedback = 'down') as down`,
        [app.workspaceId],
      ),
    );
    expect(db).toMatchObject({ ready: 2, questions: 3, up: 1 });
    expect(await cardValue(page, 'fig-sources-ready')).toBe(String(db?.ready));
    expect(await cardValue(page, 'fig-passages')).toBe(String(db?.passages));
    expect(await cardValue(page, 'fig-questions-week')).toBe('3');
    expect(await cardValue(page, 'fig-unanswered-rate')).toBe(`${Math.round(((db?.unanswered ?? 0) / 3) * 100)} %`);
    expect(await page.locator('#fig-votes .l').innerText()).toContain(`👍 ${db?.up} · 👎 ${db?.down}`);
    for (const chart of ['#chart-similarity', '#chart-unanswered', '#chart-latency']) {
      await expect(page.locator(`${chart} svg`).isVisible()).resolves.toBe(true);
    }
    expect(await page.locator('#chart-latency g[data-stage="total"]').getAttribute('data-p50')).not.toBe('');
    expect(await page.locator('#chart-similarity svg title').first().textContent()).toMatch(/Similarity of retrieved passages: [1-9]\d* retrieved/);
    await shot(page, 'dashboard-01-overview');

    await page.click('nav.dash a[href="/dashboard/questions"]');
    for (const question of questions) await expect(page.locator('article.q h3', { hasText: question }).count()).resolves.toBe(1);
    await expect(page.locator('#questions-total').innerText()).resolves.toBe('3 questions');
    await shot(page, 'dashboard-02-questions');

    // A settings change: preview, then save.
    await page.click('nav.dash a[href="/dashboard/settings"]');
    await page.fill('#match_count', '3');
    await page.fill('#min_similarity', '0.4');
    await page.click('#preview-settings');
    await page.locator('#preview').waitFor();
    await shot(page, 'dashboard-03-settings-preview');
    await page.click('#save-settings');
    await page.waitForURL(/done=saved/);
    await expect(page.locator('#current-match-count').innerText()).resolves.toBe('3');
    const [settings] = await withService(app.db, (tx) => tx.query<{ match_count: number; min_similarity: number }>('select match_count, min_similarity from workspaces where id = $1', [app.workspaceId]));
    expect({ k: settings?.match_count, s: Number(settings?.min_similarity) }).toEqual({ k: 3, s: 0.4 });
    await shot(page, 'dashboard-04-settings-saved');

    // Forget a source, then restore it.
    await page.click('nav.dash a[href="/dashboard/sources"]');
    const row = page.locator('tr[data-source-id]', { hasText: 'Refund policy' });
    const sourceId = (await row.getAttribute('data-source-id')) ?? '';
    await row.locator('button[data-action="forget"]').click();
    await page.waitForURL(/done=forgotten/);
    await expect(page.locator(`tr[data-source-id="${sourceId}"]`).getAttribute('data-status')).resolves.toBe('forgotten');
    const live = async () =>
      (await withService(app.db, (tx) => tx.query<{ n: number }>('select count(*)::int as n from chunks where artifact_id = $1 and is_live', [sourceId])))[0]?.n;
    expect(await live()).toBe(0);
    await shot(page, 'dashboard-05-source-forgotten');
    await page.locator(`tr[data-source-id="${sourceId}"] button[data-action="restore"]`).click();
    await page.waitForURL(/done=restored/);
    await expect(page.locator(`tr[data-source-id="${sourceId}"]`).getAttribute('data-status')).resolves.toBe('ready');
    expect(await live()).toBeGreaterThan(0);
    await shot(page, 'dashboard-06-source-restored');
    await context.close();
  }, 300_000);
});
