import { describe, expect, it } from 'vitest';
import { withDeadline } from '../src/deadline.ts';

describe('withDeadline', () => {
  it('rejects with the timeout error by the deadline, even when the work ignores its signal', async () => {
    const started = Date.now();
    let aborted = false;
    const work = (signal: AbortSignal) => {
      signal.addEventListener('abort', () => (aborted = true));
      return new Promise<string>((resolve) => setTimeout(() => resolve('late'), 2_000));
    };
    await expect(withDeadline(50, work, () => new Error('too slow'))).rejects.toThrow('too slow');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(aborted).toBe(true);
  });

  it('returns the result of work that finishes in time, and follows the parent signal', async () => {
    await expect(withDeadline(1_000, async () => 'ok', () => new Error('x'))).resolves.toBe('ok');
    const parent = new AbortController();
    const seen = withDeadline(
      1_000,
      (signal) => new Promise((_r, reject) => signal.addEventListener('abort', () => reject(new Error('parent gave up')))),
      () => new Error('timeout'),
      parent.signal,
    );
    parent.abort();
    await expect(seen).rejects.toThrow('parent gave up');
  });
});
