import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HELPER_THREAD_NICENESS, yieldRuntimeThreads } from '../src/index.ts';

const child = fileURLToPath(new URL('./fixtures/runtime-threads-child.mjs', import.meta.url));

interface Report {
  applied: { reniced: number } | null;
  main: number;
  nice: number[];
  /** CPU ticks (10 ms) the threads that were there before the helper spent while it made garbage. */
  othersTicks: number;
}

function run(mode: 'yield' | 'leave'): Report {
  const result = spawnSync(process.execPath, [child, mode], { encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) throw new Error(`runtime-threads child (${mode}) exited ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as Report;
}

describe('V8’s own threads give way in the process that acknowledges interactions', () => {
  it('leaves everything alone where a nice value is the whole process’s, or with `normal`', () => {
    expect(yieldRuntimeThreads('darwin', 'nice')).toBeUndefined();
    expect(yieldRuntimeThreads('linux', 'normal')).toBeUndefined();
  });

  it.skipIf(process.platform !== 'linux')('renices every other thread, and a helper started afterwards collects its young garbage on its own thread (Linux only)', () => {
    const left = run('leave');
    const yielded = run('yield');
    expect(yielded.applied?.reniced).toBeGreaterThan(0);
    expect(yielded.nice.length).toBe(yielded.applied?.reniced);
    expect(yielded.nice.every((nice) => nice === Math.min(19, yielded.main + HELPER_THREAD_NICENESS))).toBe(true);
    expect(left.nice.every((nice) => nice === left.main)).toBe(true);
    // Without it V8's threads do much of the helper's young-generation collection (66–82 ticks
    // in three quiet runs); with it they keep only concurrent marking and sweeping (19–22).
    expect(left.othersTicks).toBeGreaterThanOrEqual(10);
    expect(yielded.othersTicks).toBeLessThanOrEqual(left.othersTicks / 2);
  });
});
