import { describe, expect, it } from 'vitest';
import type { AppError } from '@brain/errors';
import { loadConfig } from '../src/index.ts';

const cwd = '/srv/brain';

describe('queue fairness and save limit settings', () => {
  it('defaults: one slot below the concurrency per workspace, a 20 s fetch, 20 saves per member per 10 minutes, 200 per workspace per hour', () => {
    const config = loadConfig({}, { cwd });
    expect(config.worker).toMatchObject({ concurrency: 2, jobsPerWorkspace: 1, fetchTimeoutMs: 20_000 });
    expect(config.saveLimits).toEqual({ perMember: { limit: 20, windowSeconds: 600 }, perWorkspace: { limit: 200, windowSeconds: 3600 } });
    expect(loadConfig({ BRAIN_WORKER_CONCURRENCY: '6' }, { cwd }).worker.jobsPerWorkspace).toBe(5);
    expect(loadConfig({ BRAIN_WORKER_CONCURRENCY: '1' }, { cwd }).worker.jobsPerWorkspace).toBe(1);
  });

  it('takes each from its variable, 0 turning a save limit off', () => {
    const config = loadConfig({ BRAIN_WORKER_JOBS_PER_WORKSPACE: '3', BRAIN_FETCH_TIMEOUT_SECONDS: '0.5', BRAIN_SAVES_PER_MEMBER: '0', BRAIN_SAVES_PER_WORKSPACE: '50' }, { cwd });
    expect(config.worker).toMatchObject({ jobsPerWorkspace: 3, fetchTimeoutMs: 500 });
    expect(config.saveLimits.perMember.limit).toBe(0);
    expect(config.saveLimits.perWorkspace.limit).toBe(50);
  });

  it('names a bad value and what a good one looks like', () => {
    let error: AppError | undefined;
    try {
      loadConfig({ BRAIN_WORKER_JOBS_PER_WORKSPACE: '0', BRAIN_FETCH_TIMEOUT_SECONDS: 'soon', BRAIN_SAVES_PER_MEMBER: 'many' }, { cwd });
    } catch (e) {
      error = e as AppError;
    }
    expect(error?.message).toContain('BRAIN_WORKER_JOBS_PER_WORKSPACE: must be a whole number of jobs between 1 and 64');
    expect(error?.message).toContain('BRAIN_FETCH_TIMEOUT_SECONDS: must be a positive number of seconds');
    expect(error?.message).toContain('BRAIN_SAVES_PER_MEMBER: must be a whole number, for example 20');
  });
});
