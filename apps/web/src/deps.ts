import type { Accounts, DevOutboxMailer, Signer } from '@brain/accounts';
import type { BillingService } from '@brain/billing';
import type { BrainConfig } from '@brain/config';
import type { DiscordSurface } from '@brain/discord';
import type { Database } from '@brain/db';
import type { McpDeps } from '@brain/mcp';
import type { BrainMetrics, Logger } from '@brain/observability';
import type { PlaygroundDeps } from './routes/playground/playground-route.ts';

/** Install, claim and billing: the pages an operator goes through, and the Stripe webhook. */
export interface OnboardingDeps {
  accounts: Accounts;
  billing: BillingService;
  /** Signs cookies, CSRF tokens and install grants (BRAIN_COOKIE_SECRET). */
  signer: Signer;
  /** Present when magic links go to the dev outbox (no SUPABASE_URL): /dev/outbox shows them to loopback callers. */
  devOutbox?: DevOutboxMailer | undefined;
  /** The Discord OAuth token exchange's fetch (tests may inject one). */
  fetch?: typeof fetch;
}

/** Everything the web service needs, built once by the composition root (apps/cli). */
export interface WebDeps {
  config: BrainConfig;
  db: Database;
  logger: Logger;
  /** GET /metrics and the interaction counters; absent, neither is served nor counted. */
  metrics?: BrainMetrics | undefined;
  /** POST /interactions; undefined when neither Discord nor the playground is configured (503). */
  discord?: DiscordSurface | undefined;
  /** The local playground (/playground); undefined when it is off. */
  playground?: PlaygroundDeps | undefined;
  /** POST /mcp for agents (bearer tokens); the route is absent without it. */
  mcp?: McpDeps | undefined;
  /** Absent in tests that only need /healthz; the composition root always provides it. */
  onboarding?: OnboardingDeps;
  /**
   * Readiness waits for this too, beside the warm-up: what the first requests would otherwise
   * wait for (the answering thread's start). Its owner bounds it; a rejection is logged, and
   * the instance is ready without it.
   */
  readyAfter?: (() => Promise<void>) | undefined;
}
