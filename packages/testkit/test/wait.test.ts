import { describe, expect, it } from 'vitest';
import { expectNoMoreCalls, waitUntil } from '../src/wait.ts';

describe('waitUntil', () => {
  it('resolves with the first truthy value, as soon as it appears', async () => {
    let n = 0;
    const started = Date.now();
    setTimeout(() => (n = 3), 60);
    expect(await waitUntil(() => n > 0 && n, { intervalMs: 5 })).toBe(3);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('awaits async conditions', async () => {
    let ready = false;
    setTimeout(() => (ready = true), 30);
    expect(await waitUntil(async () => ready && { state: 'ready' })).toEqual({ state: 'ready' });
  });

  it('rejects after the timeout, naming what it waited for and the details', async () => {
    await expect(waitUntil(() => false, { timeoutMs: 50, intervalMs: 10, what: 'the job to be done', details: () => 'last state: queued' })).rejects.toThrow(
      /timed out after 50 ms waiting for the job to be done\nlast state: queued/,
    );
  });
});

describe('expectNoMoreCalls', () => {
  it('passes when nothing more arrives during the quiet period', async () => {
    const calls = ['first'];
    await expect(expectNoMoreCalls(calls, 30)).resolves.toBeUndefined();
  });

  it('fails with the calls that arrived during the quiet period, from an array or a function', async () => {
    const calls: string[] = ['first'];
    setTimeout(() => calls.push('a retry'), 10);
    await expect(expectNoMoreCalls(calls, 60)).rejects.toThrow(/expected no more calls for 60 ms, got 1: \["a retry"\]/);
    let log: string[] = [];
    setTimeout(() => (log = [...log, 'second delivery']), 10);
    await expect(expectNoMoreCalls(() => log, 60)).rejects.toThrow(/got 1: \["second delivery"\]/);
  });
});
