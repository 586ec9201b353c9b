import { createAccounts, DevOutboxMailer, Signer } from '@brain/accounts';
import { createBillingLinks, createBillingService, createStripeGateway } from '@brain/billing';
import { loadConfig, type BrainConfig } from '@brain/config';
import type { Database } from '@brain/db';
import { createLogger } from '@brain/observability';
import { startFakeDiscordOAuth, startFakeStripe, type FakeDiscordOAuth, type FakeStripe } from '@brain/testkit';
import { buildApp, type WebApp } from '../src/index.ts';

export const CLIENT_ID = '123456789012345678';
export const CLIENT_SECRET = 'discord-secret';
export const WEBHOOK_SECRET = 'whsec_web_test';

export interface Harness {
  app: WebApp;
  config: BrainConfig;
  discord: FakeDiscordOAuth;
  stripe: FakeStripe;
  outbox: DevOutboxMailer;
  /** Waits for magic links still being sent. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/** The web app with install, claim and billing wired to local fakes, as the composition root does. */
export async function startHarness(db: Database, env: Record<string, string> = {}): Promise<Harness> {
  const discord = await startFakeDiscordOAuth({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  const stripe = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET });
  const config = loadConfig(
    {
      PUBLIC_URL: 'https://brain.example.com',
      DISCORD_APPLICATION_ID: CLIENT_ID,
      DISCORD_CLIENT_SECRET: CLIENT_SECRET,
      DISCORD_OAUTH_BASE: discord.url,
      DISCORD_API_BASE: discord.apiBase,
      STRIPE_SECRET_KEY: 'sk_test_web',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PRICE_ID: 'price_test_web',
      STRIPE_API_BASE: stripe.url,
      BRAIN_FREE_ASKS: '2',
      ...env,
    },
    { cwd: process.cwd() },
  );
  const logger = createLogger({ level: 'silent' });
  const signer = new Signer('w'.repeat(40));
  const outbox = new DevOutboxMailer({ print: () => {} });
  const accounts = createAccounts({ db, mailer: outbox, logger, publicUrl: config.publicUrl });
  const links = createBillingLinks(config.publicUrl, signer);
  const billing = createBillingService({
    db,
    logger,
    gateway: createStripeGateway({ secretKey: 'sk_test_web', webhookSecret: WEBHOOK_SECRET, apiBase: stripe.url, maxNetworkRetries: 0 }),
    priceId: config.stripe.priceId,
    links,
    policy: { billingEnabled: true, ...config.entitlements, checkoutUrl: (ws) => links.checkout(ws) },
  });
  const app = await buildApp({ config, db, logger, onboarding: { accounts, billing, signer, devOutbox: outbox } });
  return {
    app,
    config,
    discord,
    stripe,
    outbox,
    drain: () => accounts.drain(),
    async close() {
      await accounts.drain();
      await app.close();
      await discord.close();
      await stripe.close();
    },
  };
}

/** A browser's cookie jar for app.inject: keeps what Set-Cookie sets, forgets what it expires. */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  take(setCookie: string | string[] | undefined): void {
    for (const line of [setCookie ?? []].flat()) {
      const [pair, ...attrs] = line.split(';');
      const eq = (pair ?? '').indexOf('=');
      const name = (pair ?? '').slice(0, eq).trim();
      const value = (pair ?? '').slice(eq + 1).trim();
      if (attrs.some((a) => a.trim() === 'Max-Age=0')) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

/** The value of a hidden input in a page. */
export function hidden(body: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(body);
  if (!match) throw new Error(`no hidden ${name} in page:\n${body}`);
  return (match[1] ?? '').replaceAll('&amp;', '&');
}
