import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { checkEntitlement, recordUsage, type EntitlementPolicy } from '@brain/billing';
import { loadConfig, type BrainConfig } from '@brain/config';
import { migrate, openDatabase, withService, type Database } from '@brain/db';
import { createLogger } from '@brain/observability';
import { generateDevKeyPair } from '@brain/discord';
import {
  slashCommand,
  reserveLoopbackPort,
  startFakeDiscord,
  startFakeDiscordOAuth,
  startFakeStripe,
  startFakeSupabaseAuth,
  waitUntil,
  type FakeDiscord,
  type FakeDiscordOAuth,
  type FakeStripe,
  type FakeSupabaseAuth,
} from '@brain/testkit';
import { startWebServer, type OnboardingDeps, type WebServer } from '@brain/web';
import { compose } from '../src/compose.ts';
import { wireDiscord } from '../src/discord-wiring.ts';
import { resolveWorkspace } from '../src/workspace.ts';
import { templateDataDir } from './brain-process.ts';
import { describeBrowser, launchChromium, shot } from './browser.ts';

const CLIENT_ID = '223456789012345678';
const CLIENT_SECRET = 'e2e-discord-secret';
const WEBHOOK_SECRET = 'whsec_e2e';
const SUPABASE_KEY = 'e2e-service-role-key';
/** Signs interactions as Discord would; its public key is the app's DISCORD_PUBLIC_KEY. */
const DISCORD_KEYS = generateDevKeyPair();

/**
 * One `brain start` composition in embedded mode (PGlite in its own BRAIN_DATA_DIR, started from
 * the migrated template: a first run's migration is migrate.test.ts's subject), pointed at the fakes.
 */
interface Running {
  config: BrainConfig;
  db: Database;
  onboarding: OnboardingDeps;
  web: WebServer;
  dataDir: string;
  close(): Promise<void>;
}

async function startEmbedded(fakes: { discord: FakeDiscordOAuth; stripe: FakeStripe; supabase?: FakeSupabaseAuth }): Promise<Running> {
  const reserved = await reserveLoopbackPort();
  const port = reserved.port;
  const dataDir = await templateDataDir('brain-e2e-');
  const config = loadConfig(
    {
      BRAIN_DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DISCORD_APPLICATION_ID: CLIENT_ID,
      DISCORD_PUBLIC_KEY: DISCORD_KEYS.publicKeyHex,
      BRAIN_PLAYGROUND: 'off',
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
  const app = compose(config, db, logger, { print: () => {} });
  const onboarding = app.onboarding();
  // Wired as `brain start` wires it: the real ask, billing's entitlement check, Discord's REST at the fake.
  const local = await resolveWorkspace(db, undefined);
  const discord = await wireDiscord({ config, db, logger, localWorkspaceId: local.id, ask: app.answering(), checkEntitlement: app.entitlementCheck() });
  await reserved.release();
  const web = await startWebServer({ config, db, logger, onboarding, discord: discord.surface }, { host: '127.0.0.1', port });
  fakes.stripe.webhookUrl = `${config.publicUrl}/stripe/webhook`;
  return {
    config,
    db,
    onboarding,
    web,
    dataDir,
    async close() {
      await web.close();
      await discord.close();
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

/** A signed `/ask` from a member of the guild, POSTed to /interactions as Discord would. */
async function askInDiscord(baseUrl: string, guildId: string, question: string): Promise<{ status: number; token: string; body: unknown }> {
  const user = { id: '300000000000000001', username: 'reader', discriminator: '0', avatar: null };
  const interaction = slashCommand({ applicationId: CLIENT_ID, guildId, user }, 'ask', [{ name: 'question', value: question }]);
  const { token } = interaction;
  const raw = JSON.stringify(interaction);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const response = await fetch(`${baseUrl}/interactions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature-ed25519': DISCORD_KEYS.sign(timestamp, raw), 'x-signature-timestamp': timestamp },
    body: raw,
  });
  return { status: response.status, token, body: await response.json() };
}

/** What the user sees: an immediate reply (type 4), or the edit that follows a deferred one (type 5). */
async function replyText(api: FakeDiscord, asked: { status: number; token: string; body: unknown }): Promise<string> {
  expect(asked.status).toBe(200);
  const body = asked.body as { type: number; data?: Record<string, unknown> };
  if (body.type === 4) return shown(body.data ?? {});
  expect(body.type).toBe(5);
  const [edit] = await api.waitForCalls(asked.token, 1, 30_000);
  return shown(edit?.body ?? {});
}

/** Everything a reply edit shows a user: content and embed texts. */
function shown(body: Record<string, unknown>): string {
  const embeds = (body.embeds ?? []) as { title?: string; description?: string }[];
  return [typeof body.content === 'string' ? body.content : '', ...embeds.flatMap((e) => [e.title ?? '', e.description ?? ''])].join('\n');
}

async function workspaceOfGuild(db: Database, guildId: string): Promise<{ id: string; plan_status: string; claim_email: string | null }> {
  const [row] = await withService(db, (tx) =>
    tx.query<{ id: string; plan_status: string; claim_email: string | null }>('select id::text, plan_status, claim_email from workspaces where guild_id = $1', [guildId]),
  );
  if (!row) throw new Error(`no workspace for guild ${guildId}`);
  return row;
}

describeBrowser('the operator path in a real browser (embedded mode, local fakes)', () => {
  let browser: Browser;
  let discord: FakeDiscordOAuth;
  let stripe: FakeStripe;
  let supabase: FakeSupabaseAuth;
  let discordApi: FakeDiscord;

  beforeAll(async () => {
    discord = await startFakeDiscordOAuth({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
    discordApi = await startFakeDiscord({ server: discord.server });
    stripe = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET });
    supabase = await startFakeSupabaseAuth({ apiKey: SUPABASE_KEY });
    browser = await launchChromium();
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

      // Installed but not claimed: /ask asks for an admin to claim it (through /install, which only an admin can complete).
      const ws = await workspaceOfGuild(app.db, discord.guild.id);
      const policy = policyOf(app.config, app.onboarding);
      const unclaimed = await replyText(discordApi, await askInDiscord(app.config.publicUrl, discord.guild.id, 'When does the book club meet?'));
      expect(unclaimed).toContain('claim this workspace');
      expect(unclaimed).toContain(`${app.config.publicUrl}/install`);

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

      // Claimed, not paid: the free allowance (2 asks here), then a refusal with the checkout link.
      expect((await recordUsage(app.db, ws.id, 'ask', policy)).allowed).toBe(true);
      expect((await recordUsage(app.db, ws.id, 'ask', policy)).allowed).toBe(true);
      // Discord commands see a claim within the resolver's 5 s "not ready" cache.
      let refusal = '';
      await waitUntil(
        async () => {
          refusal = await replyText(discordApi, await askInDiscord(app.config.publicUrl, discord.guild.id, 'When does the book club meet?'));
          return !refusal.includes('claim this workspace');
        },
        { timeoutMs: 15_000, intervalMs: 1_000, what: 'Discord commands to see the claim', details: () => `last reply: ${refusal}` },
      );
      expect(refusal).toContain(`${app.config.publicUrl}/billing/checkout?workspace=${ws.id}&sig=`);

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
      // Paid: /ask in the server is allowed and answered (honestly: nothing was saved yet).
      expect(await checkEntitlement(app.db, ws.id, 'ask', policy)).toMatchObject({ allowed: true, basis: 'plan' });
      const answer = await replyText(discordApi, await askInDiscord(app.config.publicUrl, discord.guild.id, 'When does the book club meet?'));
      expect(answer).toContain('No grounded sources found');
      expect(answer).not.toContain('/billing/checkout');
      const asked = await withService(app.db, (tx) => tx.query<{ n: number }>('select count(*)::int as n from queries where workspace_id = $1', [ws.id]));
      expect(asked[0]?.n).toBe(1);
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
