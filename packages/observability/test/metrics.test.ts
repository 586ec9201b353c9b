import { describe, expect, it } from 'vitest';
import { createMetrics } from '../src/index.ts';

describe('createMetrics', () => {
  it('keeps registries apart, and drops a failure code that no longer failed from the last-hour gauge', async () => {
    const a = createMetrics();
    const b = createMetrics();
    a.interactions.acknowledged('pong', 0.004);
    expect(await a.render()).toContain('brain_interactions_total{outcome="pong"} 1');
    expect(await b.render()).not.toContain('outcome="pong"');

    const snapshot = (failed: Record<string, number>) => async () => ({
      queued: 1,
      running: 0,
      oldestQueuedSeconds: 5,
      failedLastHourByCode: failed,
      retrieval: { count: 0, p50Seconds: 0, p95Seconds: 0, p99Seconds: 0 },
    });
    expect(await a.render(snapshot({ FETCH_HTTP_ERROR: 2 }))).toContain('brain_jobs_failed_last_hour{code="FETCH_HTTP_ERROR"} 2');
    expect(await a.render(snapshot({}))).not.toContain('code="FETCH_HTTP_ERROR"');
  });

  it('still serves the in-process series when the database snapshot fails, and says so', async () => {
    const metrics = createMetrics();
    metrics.jobs.finished('ingest', 'failed', 'EXTRACT_FAILED', 2);
    const errors: unknown[] = [];
    const text = await metrics.render(async () => Promise.reject(new Error('database down')), (e) => errors.push(e));
    expect(text).toContain('brain_job_failures_total{task="ingest",code="EXTRACT_FAILED"} 1');
    expect(text).toContain('brain_metrics_snapshot_errors_total 1');
    expect(errors).toHaveLength(1);
  });
});
