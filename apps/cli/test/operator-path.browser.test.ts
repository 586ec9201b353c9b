import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { checkEntitlement, recordUsage, type EntitlementPolicy } from '@brain/billing';
import { loadConfig, type BrainConfig } from '@brain/config';
import { migrate, openDatabase, withService, type Database } from '@brain/db';
import { createLogger } from '@brain/observability';
import {
  closedLoopbackUrl,
  startFakeDiscordOAuth,
  startFakeStripe,
  startFakeSupabaseAuth,
  type FakeDiscordOAuth,
  type FakeStripe,
  type FakeSupabaseAuth,
} from '@brain/testkit';
import { startWebServer, type OnboardingDeps, type WebServer } from '@brain/web';
import { resolveCookieSecret } from '../src/context.ts';
import { buildOnboarding } from '../src/onboarding.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.resolve(import.meta.dirname, '../../../test-artifacts');
const CLIENT_ID = '223456789012345678';
const CLIENT_SECRET = 'e2e-discord-secret';
const WEBHOOK_SECRET = 'whsec_e2e';
const SUPABASE_KEY = 'e2e-service-role-key';

/** One `brain start` composition in embedded mode (PGlite in a fresh BRAIN_DATA_DIR), pointed at the fakes. */
interface Running {
  config: BrainConfig;
  db: Database;
  onboarding: OnboardingDeps;
  web: WebServer;
  dataDir: string;
  close(): Promise<void>;
}

async function startEmbedded(fakes: { discord: FakeDiscordOAuth; stripe: FakeStripe; supabase?: FakeSupabaseAuth }): Promise<Running> {
  const port = Number(new URL(await closedLoopbackUrl()).port);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'brain-e2e-'));
  const config = loadConfig(
    {
      BRAIN_DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DISCORD_APPLICATION_ID: CLIENT_ID,
      DISCORD_CLIENT_SECRET: CLIENT_SECRET,
      DISCORD_OAUTH_BASE: fakes.discord.url,
      DISCORD_API_BASE: fakes.discord.apiBase,
      STRIPE_SECRET_KEY: 'sk_test_e2e',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PRICE_ID: 'price_test_e2e',
      STRIPE_API_BASE: fakes.stripe.url,
      BRAIN_FREE_ASKS: '2',
      ...(fakes.supabase ? { SUPABASE_URL: fakes.supabase.url, SUPABASE_SERVICE_ROLE_KEY: SUPABASE_KEY } : {}),
    },
    { cwd: process.cwd() },
  );
  expect(config.mode).toBe('embedded');
  const logger = createLogger({ level: 'warn' });
  const db = await openDatabase(config.database, { command: 'e2e' });
  await migrate(db);
  const onboarding = buildOnboarding({ config, db, logger, cookieSecret: resolveCookieSecret(config, logger), print: () => {} });
  const web = await startWebServer({ config, db, logger, onboarding }, { host: '127.0.0.1', port });
  fakes.stripe.webhookUrl = `${config.publicUrl}/stripe/webhook`;
  return {
    config,
    db,
    onboarding,
    web,
    dataDir,
    async close() {
      await web.close();
      await onboarding.accounts.drain();
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const policyOf = (config: BrainConfig, onboarding: OnboardingDeps): EntitlementPolicy => ({
  billingEnabled: true,
  ...config.entitlements,
  checkoutUrl: (ws) => onboarding.billing.links.checkout(ws),
});

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

async function workspaceOfGuild(db: Database, guildId: string): Promise<{ id: string; plan_status: string; claim_email: string | null }> {
  const [row] = await withService(db, (tx) =>
    tx.query<{ id: string; plan_status: string; claim_email: string | null }>('select id::text, plan_status, claim_email from workspaces where guild_id = $1', [guildId]),
  );
  if (!row) throw new Error(`no workspace for guild ${guildId}`);
  return row;
}

if (!fs.existsSync(CHROMIUM)) {
  describe('the operator path in a real browser', () => {
    it(`is skipped: Chromium is not installed at ${CHROMIUM} (bash .ci/provision-chromium.sh installs it)`, (ctx) => {
      console.log(`[browser test] skipped: ${CHROMIUM} not found; run bash .ci/provision-chromium.sh`);
      ctx.skip();
    });
  });
} else {
  describe('the operator path in a real browser (embedded mode, local fakes)', () => {
    let browser: Browser;
    let discord: FakeDiscordOAuth;
    let stripe: FakeStripe;
    let supabase: FakeSupabaseAuth;

    beforeAll(async () => {
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      discord = await startFakeDiscordOAuth({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
      stripe = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET });
      supabase = await startFakeSupabaseAuth({ apiKey: SUPABASE_KEY });
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
    });
    afterAll(async () => {
      await browser?.close();
      await Promise.all([discord?.close(), stripe?.close(), supabase?.close()]);
    });

    it('installs, claims by a Supabase magic link, checks out, takes the webhook and ends active with /ask allowed', async () => {
      const app = await startEmbedded({ discord, stripe, supabase });
      const started = Date.now();
      try {
        discord.guild = { id: '934567890123456789', name: 'Book Club' };
        const context = await browser.newContext();
        const page = await context.newPage();

        await page.goto(`${app.config.publicUrl}/install`);
        expect(page.url().startsWith(`${discord.url}/oauth2/authorize`)).toBe(true);
        await shot(page, '01-discord-authorize');
        await page.click('#authorize');
        await page.waitForURL(/\/claim\?workspace=/);
        await expect(page.locator('h1').textContent()).resolves.toContain('Book Club');
        await shot(page, '02-claim-form');

        // Before paying: the free allowance (2 asks here), then a clear refusal with the checkout link.
        const ws = await workspaceOfGuild(app.db, discord.guild.id);
        const policy = policyOf(app.config, app.onboarding);
        expect((await recordUsage(app.db, ws.id, 'ask', policy)).allowed).toBe(true);
        expect((await recordUsage(app.db, ws.id, 'ask', policy)).allowed).toBe(true);
        const refused = await checkEntitlement(app.db, ws.id, 'ask', policy);
        expect(refused).toMatchObject({ allowed: false, code: 'FREE_ALLOWANCE_USED' });
        expect(refused.allowed ? '' : refused.message).toContain(`${app.config.publicUrl}/billing/checkout?workspace=${ws.id}&sig=`);

        await page.fill('#email', 'owner@bookclub.example');
        await page.click('button[type=submit]');
        await page.waitForURL(/\/claim\/sent/);
        await shot(page, '03-check-inbox');
        await app.onboarding.accounts.drain();
        const email = supabase.emails.at(-1);
        expect(email?.to).toBe('owner@bookclub.example');
        expect(email?.link.startsWith(`${app.config.publicUrl}/claim/confirm?token=`)).toBe(true);

        await page.goto(email?.link ?? '');
        await expect(page.locator('h1').textContent()).resolves.toContain('Claim Book Club?');
        await shot(page, '04-confirm-claim');
        expect((await workspaceOfGuild(app.db, discord.guild.id)).claim_email).toBeNull();
        await page.click('button[type=submit]');
        await expect(page.locator('h1').textContent()).resolves.toContain('Book Club is yours');
        expect(supabase.server.requests.filter((r) => r.path === '/auth/v1/verify')).toHaveLength(1);
        await shot(page, '05-claimed');

        await page.click('button[type=submit]');
        await page.waitForURL(new RegExp(`^${stripe.url}/pay/`));
        await shot(page, '06-stripe-checkout');
        await page.click('#pay');
        await page.waitForURL(/\/billing\/success/);
        await expect(page.locator('h1').textContent()).resolves.toContain('Book Club has a plan');
        await shot(page, '07-subscribed');

        const after = await workspaceOfGuild(app.db, discord.guild.id);
        expect(after).toMatchObject({ plan_status: 'active', claim_email: 'owner@bookclub.example' });
        const seen = await withService(app.db, (tx) => tx.query<{ type: string }>('select type from stripe_events_seen order by type'));
        expect(seen.map((r) => r.type)).toEqual(['checkout.session.completed', 'customer.subscription.created', 'invoice.paid']);
        // /ask itself is not built yet: its entitlement is what it will call.
        expect(await checkEntitlement(app.db, ws.id, 'ask', policy)).toMatchObject({ allowed: true, basis: 'plan' });
        expect(await recordUsage(app.db, ws.id, 'ask', policy)).toMatchObject({ allowed: true, basis: 'plan' });
        const seconds = (Date.now() - started) / 1000;
        console.log(`[browser test] install → claim → checkout → active in ${seconds.toFixed(1)} s (embedded mode, local fakes)`);
        expect(seconds).toBeLessThan(60);
        await context.close();
      } finally {
        await app.close();
      }
    }, 180_000);

    it('claims through the dev outbox page when no email service is configured', async () => {
      const app = await startEmbedded({ discord, stripe });
      try {
        discord.guild = { id: '944567890123456789', name: 'Garden Guild' };
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(`${app.config.publicUrl}/install`);
        await page.click('#authorize');
        await page.waitForURL(/\/claim\?workspace=/);
        await page.fill('#email', 'gardener@example.com');
        await page.click('button[type=submit]');
        await page.waitForURL(/\/claim\/sent/);
        await app.onboarding.accounts.drain();
        await page.click('a[href="/dev/outbox"]');
        await shot(page, '08-dev-outbox');
        await page.click('text=open link');
        await page.click('button[type=submit]');
        await expect(page.locator('h1').textContent()).resolves.toContain('Garden Guild is yours');
        expect((await workspaceOfGuild(app.db, discord.guild.id)).claim_email).toBe('gardener@example.com');
        await context.close();
      } finally {
        await app.close();
      }
    }, 180_000);
  });
}
