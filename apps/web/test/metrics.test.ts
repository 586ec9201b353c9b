import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '@brain/config';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import type { AskOutcome } from '@brain/discord';
import { createLogger, createMetrics, type BrainMetrics } from '@brain/observability';
import { startFakeDiscord, type FakeDiscord } from '@brain/testkit';
import { buildApp } from '../src/index.ts';
import { createGuildWorkspace, recordQuery, slash, startHarness, type Harness } from './helpers/discord-harness.ts';

/** The value of one series in Prometheus text, e.g. sample(text, 'brain_interactions_total{outcome="pong"}'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describeDb('GET /metrics', (suite) => {
  let discord: FakeDiscord;
  let h: Harness;
  let metrics: BrainMetrics;
  let guild: { guildId: string; workspaceId: string };

  beforeAll(async () => {
    discord = await startFakeDiscord();
    metrics = createMetrics();
    guild = await createGuildWorkspace(suite.db);
    const queryId = await recordQuery(suite.db, guild.workspaceId, 'How do we deploy?');
    const outcome: AskOutcome = { answer: 'On Fridays [1].', grounded: true, citations: [], queryId, trimmed: false, answerer: 'extractive', model: null };
    h = await startHarness({ db: suite.db, discord, metrics, ask: async () => outcome });
  });
  afterAll(async () => {
    await h.close();
    await discord.close();
  });

  it('counts interactions by outcome with their acknowledgement latency, and reads the queue, failures and retrieval latency from the database', async () => {
    expect((await h.send({ type: 1 })).json).toEqual({ type: 1 });
    expect((await h.send({ type: 1 })).json).toEqual({ type: 1 });
    const ask = slash(guild.guildId, 'ask', [{ name: 'question', value: 'How do we deploy?' }]);
    expect((await h.send(ask)).json).toEqual({ type: 5 });
    await discord.waitForCalls(ask.token, 1);
    const forged = await h.app.inject({ method: 'POST', url: '/interactions', headers: { 'content-type': 'application/json', 'x-signature-ed25519': '00', 'x-signature-timestamp': '1' }, payload: '{"type":1}' });
    expect(forged.statusCode).toBe(401);
    expect((await h.send({}, { raw: '{"type":1' })).status).toBe(400);

    // Two queued jobs (the oldest 90 s old), one running, two final failures and one older than the hour; three asks.
    await withService(suite.db, async (tx) => {
      const ws = guild.workspaceId;
      await tx.query(`insert into jobs (workspace_id, task, status, created_at) values ($1, 'ingest', 'queued', now() - interval '90 seconds'), ($1, 'ingest', 'queued', now())`, [ws]);
      await tx.query(`insert into jobs (workspace_id, task, status, lease_expires_at, locked_by) values ($1, 'ingest', 'running', now() + interval '1 minute', 'w1')`, [ws]);
      await tx.query(
        `insert into jobs (workspace_id, task, status, last_error_code, finished_at) values
           ($1, 'ingest', 'failed', 'FETCH_HTTP_ERROR', now()), ($1, 'ingest', 'failed', 'FETCH_HTTP_ERROR', now() - interval '5 minutes'),
           ($1, 'ingest', 'failed', 'EXTRACT_FAILED', now() - interval '2 hours')`,
        [ws],
      );
      for (const search of [10, 20, 40]) {
        await tx.query(`insert into queries (workspace_id, question, grounded, answerer, latency_ms) values ($1, 'q', true, 'extractive', $2::jsonb)`, [ws, JSON.stringify({ embed: 1, search })]);
      }
    });
    metrics.jobs.finished('ingest', 'done', undefined, 1.5);
    metrics.jobs.finished('ingest', 'retrying', 'EMBEDDING_RATE_LIMITED', 0.2);

    const res = await h.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(sample(text, 'brain_interactions_total{outcome="pong"}')).toBe(2);
    expect(sample(text, 'brain_interactions_total{outcome="deferred"}')).toBe(1);
    expect(sample(text, 'brain_interactions_total{outcome="invalid_signature"}')).toBe(1);
    expect(sample(text, 'brain_interactions_total{outcome="malformed"}')).toBe(1);
    expect(sample(text, 'brain_interaction_ack_seconds_count')).toBe(5);
    expect(sample(text, 'brain_interaction_ack_seconds_bucket{le="3"}')).toBe(5);
    expect(sample(text, 'brain_interaction_work_total{command="/ask",outcome="done"}')).toBe(1);
    expect(sample(text, 'brain_jobs_queued')).toBe(2);
    expect(sample(text, 'brain_jobs_running')).toBe(1);
    expect(sample(text, 'brain_jobs_oldest_queued_seconds')).toBeGreaterThanOrEqual(89);
    expect(sample(text, 'brain_jobs_oldest_queued_seconds')).toBeLessThan(200);
    expect(sample(text, 'brain_jobs_failed_last_hour{code="FETCH_HTTP_ERROR"}')).toBe(2);
    expect(sample(text, 'brain_jobs_failed_last_hour{code="EXTRACT_FAILED"}')).toBeUndefined();
    expect(sample(text, 'brain_job_failures_total{task="ingest",code="EMBEDDING_RATE_LIMITED"}')).toBe(1);
    expect(sample(text, 'brain_jobs_finished_total{task="ingest",outcome="done"}')).toBe(1);
    // The recorded query without latency is left out; the median of 10, 20, 40 ms is 20 ms.
    expect(sample(text, 'brain_retrievals_last_5m')).toBe(3);
    expect(sample(text, 'brain_retrieval_seconds{quantile="0.5"}')).toBeCloseTo(0.02, 5);
    expect(sample(text, 'brain_retrieval_seconds{quantile="0.95"}')).toBeGreaterThan(0.02);
  });
});

describeDb('GET /metrics with BRAIN_METRICS_TOKEN', (suite) => {
  it('refuses a scrape without the bearer token or with a wrong one, and serves the right one', async () => {
    const token = 'scrape-token-0123456789abcdef';
    const config = loadConfig({ BRAIN_METRICS_TOKEN: token }, { cwd: process.cwd() });
    const app = await buildApp({ config, db: suite.db, logger: createLogger({ level: 'silent' }), metrics: createMetrics() });
    try {
      const none = await app.inject({ method: 'GET', url: '/metrics' });
      expect(none.statusCode).toBe(401);
      expect(none.headers['www-authenticate']).toBe('Bearer');
      expect(none.body).not.toContain('brain_jobs_queued');
      expect((await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}x` } })).statusCode).toBe(401);
      const ok = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toContain('brain_jobs_queued 0');
    } finally {
      await app.close();
    }
  });

  it('is not served at all when no metrics registry is wired', async () => {
    const config = loadConfig({}, { cwd: process.cwd() });
    const app = await buildApp({ config, db: suite.db, logger: createLogger({ level: 'silent' }) });
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    await app.close();
  });
});
