import { isIP } from 'node:net';
import { z } from 'zod';

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', ''])
  .transform((v) => (v === '' ? undefined : ['true', '1', 'yes', 'on'].includes(v)))
  .optional();

const httpUrl = optionalString.refine(
  (v) => v === undefined || /^https?:\/\/[^\s]+$/i.test(v),
  'must be an http(s) URL, for example https://brain.example.com',
);

const countString = (example: string) =>
  optionalString
    .refine((v) => v === undefined || (/^\d{1,9}$/.test(v)), `must be a whole number, for example ${example}`)
    .transform((v) => (v === undefined ? undefined : Number(v)));

const portString = optionalString
  .refine((v) => v === undefined || (/^\d{1,5}$/.test(v) && Number(v) <= 65535), 'must be a port number between 0 and 65535')
  .transform((v) => (v === undefined ? undefined : Number(v)));

// A host name or an IP literal (IPv6 without brackets), as `listen()` takes it.
const listenHost = optionalString.refine(
  (v) => v === undefined || isIP(v) !== 0 || /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(v),
  'must be an address to listen on, for example 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)',
);

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

// Whom to believe about the client's address: a hop count, or the proxies' addresses and CIDRs.
const trustProxy = optionalString
  .refine(
    (v) => v === undefined || /^\d{1,2}$/.test(v) || v.split(',').every((entry) => isProxyEntry(entry.trim())),
    'must be a number of proxy hops (1 behind Render) or a comma-separated list of proxy addresses or CIDRs, for example 10.0.0.0/8,127.0.0.1',
  )
  .transform((v): number | string[] | undefined => {
    if (v === undefined) return undefined;
    if (/^\d{1,2}$/.test(v)) return Number(v);
    return v.split(',').map((entry) => entry.trim());
  });

/** The environment the apps read, by the names DESIGN §3 documents. Unknown names are ignored. */
export const envSchema = z.object({
  PORT: portString,
  HOST: listenHost,
  BRAIN_TRUST_PROXY: trustProxy,
  PUBLIC_URL: httpUrl,
  BRAIN_DATA_DIR: optionalString,
  DATABASE_URL: optionalString,
  DATABASE_PREPARE: booleanString,
  BRAIN_MIGRATE_DATABASE_URL: optionalString,
  DISCORD_PUBLIC_KEY: optionalString.refine(
    (v) => v === undefined || /^[0-9a-f]{64}$/i.test(v),
    'must be the 64-character hex public key from the Discord developer portal (General Information)',
  ),
  DISCORD_APPLICATION_ID: optionalString.refine(
    (v) => v === undefined || /^\d{17,20}$/.test(v),
    'must be the numeric application id from the Discord developer portal',
  ),
  DISCORD_CLIENT_SECRET: optionalString,
  DISCORD_BOT_TOKEN: optionalString,
  DISCORD_API_BASE: httpUrl,
  DISCORD_OAUTH_BASE: httpUrl,
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: httpUrl,
  EMBEDDING_MODEL: optionalString,
  CHAT_MODEL: optionalString,
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_PRICE_ID: optionalString,
  STRIPE_API_BASE: httpUrl,
  SUPABASE_URL: httpUrl,
  SUPABASE_SERVICE_ROLE_KEY: optionalString,
  BRAIN_FREE_SAVES: countString('25'),
  BRAIN_FREE_ASKS: countString('100'),
  BRAIN_PAST_DUE_GRACE_DAYS: countString('7'),
  BRAIN_COOKIE_SECRET: optionalString.refine(
    (v) => v === undefined || v.length >= 32,
    'must be at least 32 random characters (for example the output of `openssl rand -hex 32`)',
  ),
  BRAIN_ALLOW_PRIVATE_HOSTS: optionalString,
  BRAIN_PLAYGROUND: booleanString,
  BRAIN_PGLITE_THREAD: booleanString,
  BRAIN_ANSWER_THREAD: booleanString,
  BRAIN_HELPER_THREAD_PRIORITY: z
    .enum(['nice', 'idle', 'normal', ''], { message: 'must be nice (the default), idle or normal' })
    .transform((v) => (v === '' ? undefined : v))
    .optional(),
  BRAIN_MCP_TOKEN: optionalString,
  BRAIN_METRICS_TOKEN: optionalString.refine(
    (v) => v === undefined || v.length >= 16,
    'must be at least 16 random characters (for example the output of `openssl rand -hex 24`)',
  ),
  BRAIN_METRICS_PORT: portString,
  BRAIN_WORKER_CONCURRENCY: optionalString.refine(
    (v) => v === undefined || (/^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= 64),
    'must be a whole number of jobs between 1 and 64',
  ),
  BRAIN_WORKER_JOBS_PER_WORKSPACE: optionalString.refine(
    (v) => v === undefined || (/^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= 64),
    'must be a whole number of jobs between 1 and 64',
  ),
  BRAIN_SAVES_PER_MEMBER: countString('20'),
  BRAIN_SAVES_PER_WORKSPACE: countString('200'),
  BRAIN_FETCH_TIMEOUT_SECONDS: optionalString.refine(
    (v) => v === undefined || (/^\d+(\.\d+)?$/.test(v) && Number(v) > 0 && Number(v) <= 600),
    'must be a positive number of seconds, at most 600, e.g. 20',
  ),
  BRAIN_JOB_LEASE_SECONDS: optionalString.refine(
    (v) => v === undefined || (/^\d{1,5}$/.test(v) && Number(v) >= 1),
    'must be a whole number of seconds, at least 1',
  ),
  BRAIN_SHUTDOWN_GRACE_SECONDS: optionalString.refine(
    (v) => v === undefined || (/^\d{1,3}$/.test(v) && Number(v) >= 1),
    'must be a whole number of seconds, at least 1 (keep it below the platform\'s shutdown delay)',
  ),
  BRAIN_REFRESH_AFTER_HOURS: optionalString.refine(
    (v) => v === undefined || (/^\d+(\.\d+)?$/.test(v) && Number(v) > 0),
    'must be a positive number of hours, e.g. 24',
  ),
  BRAIN_SYNC_INTERVAL_MINUTES: optionalString.refine(
    (v) => v === undefined || (/^\d{1,5}$/.test(v) && Number(v) >= 1),
    'must be a whole number of minutes, at least 1 (the sweeper looks every 15 minutes)',
  ),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent', ''])
    .transform((v) => (v === '' ? undefined : v))
    .optional(),
});

export type RawEnv = z.infer<typeof envSchema>;
