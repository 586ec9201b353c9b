import path from 'node:path';
import { AppError } from '@brain/errors';
import { parseDatabaseUrl } from './database-url.ts';
import { envSchema, type RawEnv } from './env-schema.ts';
import type { BrainConfig } from './types.ts';

export const DEFAULT_PORT = 3000;
export const DEFAULT_EMBEDDING_MODEL = 'local-hash-v2';
export const DEFAULT_OPENAI_EMBEDDING_MODEL = 'text-embedding-3-small';
export const DEFAULT_OPENAI_CHAT_MODEL = 'gpt-4o-mini';
export const DEFAULT_DISCORD_API_BASE = 'https://discord.com/api';
export const DEFAULT_DISCORD_OAUTH_BASE = 'https://discord.com';
export const DEFAULT_FREE_SAVES = 25;
export const DEFAULT_FREE_ASKS = 100;
export const DEFAULT_PAST_DUE_GRACE_DAYS = 7;
export const DEFAULT_SHUTDOWN_GRACE_SECONDS = 20;
export const EMBEDDED_HOST = '127.0.0.1';
export const NETWORK_HOST = '0.0.0.0';
// Supabase's transaction pooler (Supavisor) listens on 6543 and cannot keep prepared statements.
const TRANSACTION_POOLER_PORT = 6543;

export interface LoadConfigOptions {
  /** Resolves a relative BRAIN_DATA_DIR. */
  cwd: string;
}

/**
 * Parses the environment once, for the whole process. Every problem is reported together,
 * each with the variable's name and what a valid value looks like.
 */
export function loadConfig(env: Record<string, string | undefined>, options: LoadConfigOptions): BrainConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new AppError({
      code: 'CONFIG_INVALID',
      message: `Invalid configuration:\n  - ${problems.join('\n  - ')}`,
      nextStep: 'Fix the variables above (docs/configuration.md lists every setting), then start again.',
      details: { problems },
    });
  }
  const e = parsed.data;
  const missing = requiredTogether(e);
  if (missing.length > 0) {
    throw new AppError({
      code: 'CONFIG_INVALID',
      message: `Invalid configuration:\n  - ${missing.join('\n  - ')}`,
      nextStep: 'Set the missing variables (docs/configuration.md lists every setting), or unset the ones that need them, then start again.',
      details: { problems: missing },
    });
  }
  const port = e.PORT ?? DEFAULT_PORT;
  const dataDir = path.resolve(options.cwd, e.BRAIN_DATA_DIR ?? '.brain');

  let database: BrainConfig['database'];
  if (e.DATABASE_URL) {
    const target = parseDatabaseUrl(e.DATABASE_URL);
    database = {
      kind: 'postgres',
      url: target.url,
      display: target.display,
      prepare: e.DATABASE_PREPARE ?? target.port !== TRANSACTION_POOLER_PORT,
    };
  } else {
    database = { kind: 'pglite', dataDir: path.join(dataDir, 'pgdata'), display: path.join(dataDir, 'pgdata'), thread: e.BRAIN_PGLITE_THREAD ?? true };
  }
  // The services log in as brain_app, which may not migrate; the owner's URL is for `brain migrate` alone.
  let migrationDatabase = database;
  if (e.BRAIN_MIGRATE_DATABASE_URL) {
    const target = parseDatabaseUrl(e.BRAIN_MIGRATE_DATABASE_URL, 'BRAIN_MIGRATE_DATABASE_URL');
    migrationDatabase = { kind: 'postgres', url: target.url, display: target.display, prepare: target.port !== TRANSACTION_POOLER_PORT };
  }

  const openaiConfigured = Boolean(e.OPENAI_API_KEY || e.OPENAI_BASE_URL);
  const concurrency = e.BRAIN_WORKER_CONCURRENCY ? Number(e.BRAIN_WORKER_CONCURRENCY) : 2;

  const mode = database.kind === 'pglite' ? 'embedded' : 'postgres';
  return {
    mode,
    port,
    // The zero-configuration server is this machine's alone; a deployment serves the network.
    host: e.HOST ?? (mode === 'embedded' ? EMBEDDED_HOST : NETWORK_HOST),
    // Off unless told: believing X-Forwarded-For from anyone lets a client pick its own address.
    trustProxy: e.BRAIN_TRUST_PROXY === 0 ? false : (e.BRAIN_TRUST_PROXY ?? false),
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    publicUrlConfigured: e.PUBLIC_URL !== undefined,
    dataDir,
    database,
    migrationDatabase,
    discord: {
      publicKey: e.DISCORD_PUBLIC_KEY,
      applicationId: e.DISCORD_APPLICATION_ID,
      clientSecret: e.DISCORD_CLIENT_SECRET,
      botToken: e.DISCORD_BOT_TOKEN,
      apiBase: e.DISCORD_API_BASE,
      oauthBase: (e.DISCORD_OAUTH_BASE ?? DEFAULT_DISCORD_OAUTH_BASE).replace(/\/+$/, ''),
      installConfigured: Boolean(e.DISCORD_APPLICATION_ID && e.DISCORD_CLIENT_SECRET),
    },
    openai: {
      apiKey: e.OPENAI_API_KEY,
      baseUrl: e.OPENAI_BASE_URL,
      configured: openaiConfigured,
    },
    embedding: {
      provider: openaiConfigured ? 'openai' : 'local',
      model: e.EMBEDDING_MODEL ?? (openaiConfigured ? DEFAULT_OPENAI_EMBEDDING_MODEL : DEFAULT_EMBEDDING_MODEL),
      ...(e.EMBEDDING_MODEL === undefined ? { defaulted: true as const } : {}),
    },
    chat: {
      provider: openaiConfigured ? 'openai' : 'extractive',
      model: openaiConfigured ? (e.CHAT_MODEL ?? DEFAULT_OPENAI_CHAT_MODEL) : undefined,
    },
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      priceId: e.STRIPE_PRICE_ID,
      apiBase: e.STRIPE_API_BASE,
      enabled: Boolean(e.STRIPE_SECRET_KEY),
    },
    entitlements: {
      freeSaves: e.BRAIN_FREE_SAVES ?? DEFAULT_FREE_SAVES,
      freeAsks: e.BRAIN_FREE_ASKS ?? DEFAULT_FREE_ASKS,
      pastDueGraceDays: e.BRAIN_PAST_DUE_GRACE_DAYS ?? DEFAULT_PAST_DUE_GRACE_DAYS,
    },
    // 0 turns a limit off. Windows are fixed: 10 minutes per member, an hour per workspace.
    saveLimits: {
      perMember: { limit: e.BRAIN_SAVES_PER_MEMBER ?? 20, windowSeconds: 10 * 60 },
      perWorkspace: { limit: e.BRAIN_SAVES_PER_WORKSPACE ?? 200, windowSeconds: 60 * 60 },
    },
    cookieSecret: e.BRAIN_COOKIE_SECRET,
    supabase: {
      url: e.SUPABASE_URL,
      serviceRoleKey: e.SUPABASE_SERVICE_ROLE_KEY,
    },
    allowPrivateHosts: (e.BRAIN_ALLOW_PRIVATE_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h.length > 0),
    playground: {
      enabled: e.BRAIN_PLAYGROUND ?? (database.kind === 'pglite' && !e.DISCORD_PUBLIC_KEY),
    },
    mcpToken: e.BRAIN_MCP_TOKEN,
    metricsToken: e.BRAIN_METRICS_TOKEN,
    answerThread: e.BRAIN_ANSWER_THREAD ?? true,
    helperThreadPriority: e.BRAIN_HELPER_THREAD_PRIORITY ?? 'nice',
    shutdownGraceMs: (e.BRAIN_SHUTDOWN_GRACE_SECONDS ? Number(e.BRAIN_SHUTDOWN_GRACE_SECONDS) : DEFAULT_SHUTDOWN_GRACE_SECONDS) * 1000,
    worker: {
      concurrency,
      // One slot below a worker's concurrency, so a workspace flooding the queue always leaves
      // each worker a slot for the others' saves.
      jobsPerWorkspace: e.BRAIN_WORKER_JOBS_PER_WORKSPACE ? Number(e.BRAIN_WORKER_JOBS_PER_WORKSPACE) : Math.max(1, concurrency - 1),
      fetchTimeoutMs: (e.BRAIN_FETCH_TIMEOUT_SECONDS ? Number(e.BRAIN_FETCH_TIMEOUT_SECONDS) : 20) * 1000,
      leaseMs: (e.BRAIN_JOB_LEASE_SECONDS ? Number(e.BRAIN_JOB_LEASE_SECONDS) : 60) * 1000,
      refreshAfterMs: (e.BRAIN_REFRESH_AFTER_HOURS ? Number(e.BRAIN_REFRESH_AFTER_HOURS) : 24) * 3_600_000,
      syncEveryMs: (e.BRAIN_SYNC_INTERVAL_MINUTES ? Number(e.BRAIN_SYNC_INTERVAL_MINUTES) : 15) * 60_000,
      metricsPort: e.BRAIN_METRICS_PORT,
    },
    logLevel: e.LOG_LEVEL ?? 'info',
    logLevelSet: e.LOG_LEVEL !== undefined,
  };
}

/** Settings that only work together: reported by name, like the schema's own problems. */
function requiredTogether(e: RawEnv): string[] {
  const problems: string[] = [];
  if (e.STRIPE_SECRET_KEY) {
    if (!e.STRIPE_PRICE_ID) problems.push('STRIPE_PRICE_ID: required when STRIPE_SECRET_KEY is set (the price of the monthly plan, price_…)');
    if (!e.STRIPE_WEBHOOK_SECRET) {
      problems.push('STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set (the signing secret, whsec_…, of the endpoint PUBLIC_URL/stripe/webhook)');
    }
  }
  if (e.SUPABASE_URL && !e.SUPABASE_SERVICE_ROLE_KEY) {
    problems.push('SUPABASE_SERVICE_ROLE_KEY: required when SUPABASE_URL is set (Project Settings → API)');
  }
  if (e.BRAIN_MIGRATE_DATABASE_URL && !e.DATABASE_URL) {
    problems.push('DATABASE_URL: required when BRAIN_MIGRATE_DATABASE_URL is set (the services\' database; BRAIN_MIGRATE_DATABASE_URL is the same database as its owner, for `brain migrate`)');
  }
  if (e.DISCORD_CLIENT_SECRET && !e.DISCORD_APPLICATION_ID) {
    problems.push('DISCORD_APPLICATION_ID: required when DISCORD_CLIENT_SECRET is set (it is the OAuth2 client id)');
  }
  return problems;
}
