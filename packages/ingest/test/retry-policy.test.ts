import { describe, expect, it } from 'vitest';
import { AppError, type ErrorCode } from '@brain/errors';
import type { Job } from '../src/index.ts';
import { decideRetry } from '../src/queue/retry-policy.ts';

const job = (payload: Record<string, unknown>, attempts = 1): Job => ({ id: 'j', workspaceId: 'w', artifactId: 'a', task: 'ingest', payload, attempts, maxAttempts: 5 });
const timeout = (url: string) => new AppError({ code: 'FETCH_TIMEOUT', message: 'slow', retryable: true, details: { timeoutMs: 20_000, url } });

describe('retry decisions', () => {
  it('retries the first timeout of a host and records it; the second timeout of that host is final', () => {
    const first = decideRetry(job({ reason: 'save' }), timeout('https://Slow.example.com/a'));
    expect(first).toEqual({ retry: true, payloadPatch: { timed_out_hosts: ['slow.example.com'] } });
    expect(decideRetry(job({ reason: 'save', ...first.payloadPatch }, 2), timeout('https://slow.example.com/b'))).toEqual({ retry: false, payloadPatch: null });
  });

  it('counts hosts separately: a redirect to another host that times out gets its own retry', () => {
    const decision = decideRetry(job({ timed_out_hosts: ['slow.example.com'] }, 2), timeout('https://cdn.example.net/a'));
    expect(decision).toEqual({ retry: true, payloadPatch: { timed_out_hosts: ['slow.example.com', 'cdn.example.net'] } });
  });

  it('leaves other retryable failures to the attempt limit', () => {
    const unavailable = new AppError({ code: 'FETCH_HTTP_STATUS' as ErrorCode, message: '503', retryable: true });
    expect(decideRetry(job({ timed_out_hosts: ['slow.example.com'] }, 4), unavailable)).toEqual({ retry: true, payloadPatch: null });
    expect(decideRetry(job({}, 5), unavailable).retry).toBe(false);
    expect(decideRetry(job({}), new AppError({ code: 'EXTRACT_EMPTY', message: 'x' })).retry).toBe(false);
  });
});
