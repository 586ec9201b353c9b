import { describe, expect, it } from 'vitest';
import type { AppError } from '@brain/errors';
import { loadConfig } from '../src/index.ts';

const cwd = '/srv/brain';

function configError(env: Record<string, string>): AppError {
  try {
    loadConfig(env, { cwd });
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected loadConfig to throw');
}

describe('loadConfig', () => {
  it('runs embedded with nothing configured', () => {
    const config = loadConfig({}, { cwd });
    expect(config.mode).toBe('embedded');
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.dataDir).toBe('/srv/brain/.brain');
    expect(config.database).toEqual({ kind: 'pglite', dataDir: '/srv/brain/.brain/pgdata', display: '/srv/brain/.brain/pgdata', thread: true });
    expect(config.embedding).toEqual({ provider: 'local', model: 'local-hash-v2', defaulted: true });
    expect(config.chat.provider).toBe('extractive');
  });

  it('runs the embedded database on the main thread with BRAIN_PGLITE_THREAD=off', () => {
    expect(loadConfig({ BRAIN_PGLITE_THREAD: 'off' }, { cwd }).database).toMatchObject({ kind: 'pglite', thread: false });
    expect(() => loadConfig({ BRAIN_PGLITE_THREAD: 'sometimes' }, { cwd })).toThrow(/BRAIN_PGLITE_THREAD/);
  });

  it('runs helper threads nice by default, and SCHED_IDLE or unchanged only when asked (BRAIN_HELPER_THREAD_PRIORITY)', () => {
    expect(loadConfig({}, { cwd }).helperThreadPriority).toBe('nice');
    expect(loadConfig({ BRAIN_HELPER_THREAD_PRIORITY: 'idle' }, { cwd }).helperThreadPriority).toBe('idle');
    expect(loadConfig({ BRAIN_HELPER_THREAD_PRIORITY: 'normal' }, { cwd }).helperThreadPriority).toBe('normal');
    expect(() => loadConfig({ BRAIN_HELPER_THREAD_PRIORITY: 'realtime' }, { cwd })).toThrow(/BRAIN_HELPER_THREAD_PRIORITY.*nice \(the default\), idle or normal/s);
  });

  it('answers on a thread of its own unless BRAIN_ANSWER_THREAD=off', () => {
    expect(loadConfig({}, { cwd }).answerThread).toBe(true);
    expect(loadConfig({ BRAIN_ANSWER_THREAD: 'off' }, { cwd }).answerThread).toBe(false);
    expect(() => loadConfig({ BRAIN_ANSWER_THREAD: 'sometimes' }, { cwd })).toThrow(/BRAIN_ANSWER_THREAD/);
  });

  it('switches to postgres with DATABASE_URL, keeping prepared statements except behind the transaction pooler', () => {
    const direct = loadConfig({ DATABASE_URL: 'postgres://u:secret@db.example.com:5432/app' }, { cwd });
    expect(direct.mode).toBe('postgres');
    expect(direct.database).toMatchObject({ kind: 'postgres', prepare: true, display: 'db.example.com:5432/app' });

    const pooled = loadConfig({ DATABASE_URL: 'postgresql://u:secret@pooler.supabase.com:6543/postgres' }, { cwd });
    expect(pooled.database).toMatchObject({ prepare: false });

    const forced = loadConfig({ DATABASE_URL: 'postgres://u@h/db', DATABASE_PREPARE: 'false' }, { cwd });
    expect(forced.database).toMatchObject({ prepare: false });
  });

  it('rejects a malformed DATABASE_URL without echoing its password', () => {
    for (const url of ['not a url', 'mysql://root:hunter2@db/app', 'postgres://:hunter2@/app']) {
      const error = configError({ DATABASE_URL: url });
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toMatch(/DATABASE_URL is malformed/);
      expect(error.nextStep).toMatch(/postgres:\/\/USER:PASSWORD@HOST/);
      expect(`${error.message} ${error.nextStep}`).not.toContain('hunter2');
    }
  });

  it('migrates through BRAIN_MIGRATE_DATABASE_URL when set (the owner), the services keeping DATABASE_URL (brain_app)', () => {
    const services = 'postgres://brain_app.ref:app-secret@pooler.supabase.com:6543/postgres';
    const split = loadConfig({ DATABASE_URL: services, BRAIN_MIGRATE_DATABASE_URL: 'postgres://postgres:owner-secret@db.ref.supabase.co:5432/postgres' }, { cwd });
    expect(split.database).toMatchObject({ kind: 'postgres', url: services, prepare: false, display: 'pooler.supabase.com:6543/postgres' });
    expect(split.migrationDatabase).toEqual({
      kind: 'postgres',
      url: 'postgres://postgres:owner-secret@db.ref.supabase.co:5432/postgres',
      display: 'db.ref.supabase.co:5432/postgres',
      prepare: true,
    });
    // Behind the transaction pooler too, prepared statements go off by the same port rule.
    expect(loadConfig({ DATABASE_URL: services, BRAIN_MIGRATE_DATABASE_URL: 'postgres://postgres:x@pooler.supabase.com:6543/postgres' }, { cwd }).migrationDatabase).toMatchObject({ prepare: false });

    // Unset (or empty), migrations use the services' database, embedded or not.
    expect(loadConfig({ DATABASE_URL: services, BRAIN_MIGRATE_DATABASE_URL: '' }, { cwd }).migrationDatabase).toEqual(loadConfig({ DATABASE_URL: services }, { cwd }).database);
    expect(loadConfig({}, { cwd }).migrationDatabase).toEqual(loadConfig({}, { cwd }).database);
  });

  it('refuses BRAIN_MIGRATE_DATABASE_URL malformed (naming it, not echoing its password) or without DATABASE_URL', () => {
    const error = configError({ DATABASE_URL: 'postgres://u@h/db', BRAIN_MIGRATE_DATABASE_URL: 'mysql://root:hunter2@db/app' });
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toBe('BRAIN_MIGRATE_DATABASE_URL is malformed: its scheme is "mysql", not postgres or postgresql');
    expect(error.nextStep).toMatch(/schema's owner/);
    expect(`${error.message} ${error.nextStep}`).not.toContain('hunter2');

    const alone = configError({ BRAIN_MIGRATE_DATABASE_URL: 'postgres://postgres:owner-secret@db.example.com/app' });
    expect(alone.code).toBe('CONFIG_INVALID');
    expect(alone.message).toContain('DATABASE_URL: required when BRAIN_MIGRATE_DATABASE_URL is set');
    expect(alone.message).not.toContain('owner-secret');
  });

  it('reports every invalid variable at once, by name, with what a valid value looks like', () => {
    const error = configError({ PORT: 'eighty', DISCORD_PUBLIC_KEY: 'xyz', PUBLIC_URL: 'brain.example.com', LOG_LEVEL: 'loud' });
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('PORT: must be a port number');
    expect(error.message).toContain('DISCORD_PUBLIC_KEY: must be the 64-character hex public key');
    expect(error.message).toContain('PUBLIC_URL: must be an http(s) URL');
    expect(error.message).toContain('LOG_LEVEL');
  });

  it('uses OpenAI for embeddings and answers when a key is set, with overridable models', () => {
    const config = loadConfig({ OPENAI_API_KEY: 'sk-test', EMBEDDING_MODEL: 'text-embedding-3-large-1536', CHAT_MODEL: 'gpt-test' }, { cwd });
    expect(config.embedding).toEqual({ provider: 'openai', model: 'text-embedding-3-large-1536' });
    expect(config.chat).toEqual({ provider: 'openai', model: 'gpt-test' });
  });

  it('treats empty variables as unset and trims trailing slashes from PUBLIC_URL', () => {
    const config = loadConfig({ DATABASE_URL: '', PUBLIC_URL: 'https://brain.example.com/', PORT: '8080' }, { cwd });
    expect(config.mode).toBe('embedded');
    expect(config.publicUrl).toBe('https://brain.example.com');
    expect(config.port).toBe(8080);
  });

  it('parses the private-host allow-list', () => {
    const config = loadConfig({ BRAIN_ALLOW_PRIVATE_HOSTS: ' 127.0.0.1, Intranet.local ,,' }, { cwd });
    expect(config.allowPrivateHosts).toEqual(['127.0.0.1', 'intranet.local']);
  });

  it('turns the playground on in embedded mode only, off once Discord is configured, unless told otherwise', () => {
    const key = 'a'.repeat(64);
    expect(loadConfig({}, { cwd }).playground.enabled).toBe(true);
    expect(loadConfig({ DISCORD_PUBLIC_KEY: key }, { cwd }).playground.enabled).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db.example.com/brain' }, { cwd }).playground.enabled).toBe(false);
    expect(loadConfig({ DISCORD_PUBLIC_KEY: key, BRAIN_PLAYGROUND: 'on' }, { cwd }).playground.enabled).toBe(true);
    expect(loadConfig({ BRAIN_PLAYGROUND: 'off' }, { cwd }).playground.enabled).toBe(false);
  });

  it('has a free allowance, a grace period and Discord defaults for install and billing', () => {
    const config = loadConfig({}, { cwd });
    expect(config.entitlements).toEqual({ freeSaves: 25, freeAsks: 100, pastDueGraceDays: 7 });
    expect(config.discord.oauthBase).toBe('https://discord.com');
    expect(config.discord.installConfigured).toBe(false);
    expect(config.stripe.enabled).toBe(false);
    expect(config.cookieSecret).toBeUndefined();

    const tuned = loadConfig(
      { BRAIN_FREE_SAVES: '0', BRAIN_FREE_ASKS: '5', BRAIN_PAST_DUE_GRACE_DAYS: '3', DISCORD_OAUTH_BASE: 'http://127.0.0.1:9/' },
      { cwd },
    );
    expect(tuned.entitlements).toEqual({ freeSaves: 0, freeAsks: 5, pastDueGraceDays: 3 });
    expect(tuned.discord.oauthBase).toBe('http://127.0.0.1:9');
  });

  it('refuses settings that only work together when one is missing, naming each', () => {
    const error = configError({ STRIPE_SECRET_KEY: 'sk_test_x', SUPABASE_URL: 'https://p.supabase.co', DISCORD_CLIENT_SECRET: 's' });
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('STRIPE_PRICE_ID: required when STRIPE_SECRET_KEY is set');
    expect(error.message).toContain('STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set');
    expect(error.message).toContain('SUPABASE_SERVICE_ROLE_KEY: required when SUPABASE_URL is set');
    expect(error.message).toContain('DISCORD_APPLICATION_ID: required when DISCORD_CLIENT_SECRET is set');
    const invalid = configError({ BRAIN_COOKIE_SECRET: 'short', BRAIN_FREE_ASKS: '-1' }).message;
    expect(invalid).toContain('BRAIN_COOKIE_SECRET: must be at least 32 random characters');
    expect(invalid).toContain('BRAIN_FREE_ASKS: must be a whole number');
  });

  it('reads the metrics token and port and the shutdown grace, refusing a short token, a bad port or a zero grace', () => {
    const defaults = loadConfig({}, { cwd: '/srv' });
    expect(defaults.metricsToken).toBeUndefined();
    expect(defaults.worker.metricsPort).toBeUndefined();
    expect(defaults.shutdownGraceMs).toBe(20_000);
    const tuned = loadConfig({ BRAIN_METRICS_TOKEN: 'm'.repeat(24), BRAIN_METRICS_PORT: '9464', BRAIN_SHUTDOWN_GRACE_SECONDS: '5' }, { cwd: '/srv' });
    expect(tuned.metricsToken).toBe('m'.repeat(24));
    expect(tuned.worker.metricsPort).toBe(9464);
    expect(tuned.shutdownGraceMs).toBe(5_000);
    const invalid = configError({ BRAIN_METRICS_TOKEN: 'short', BRAIN_METRICS_PORT: '70000', BRAIN_SHUTDOWN_GRACE_SECONDS: '0' }).message;
    expect(invalid).toContain('BRAIN_METRICS_TOKEN: must be at least 16 random characters');
    expect(invalid).toContain('BRAIN_METRICS_PORT: must be a port number between 0 and 65535');
    expect(invalid).toContain('BRAIN_SHUTDOWN_GRACE_SECONDS: must be a whole number of seconds');
  });
});
