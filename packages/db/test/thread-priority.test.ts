import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { HELPER_THREAD_NICENESS, openPglite, yieldToMainThread } from '../src/index.ts';
import { pgliteTemplate, threadNiceness } from '../src/testing/index.ts';

describe('helper threads give way to the main thread', () => {
  it('leaves the priority alone where a nice value is the whole process’s', () => {
    const before = os.getPriority(0);
    expect(yieldToMainThread('darwin')).toBeUndefined();
    expect(os.getPriority(0)).toBe(before);
  });

  it.skipIf(process.platform !== 'linux')('runs the embedded database’s thread nicer than this one, which keeps its own (Linux only: per-thread nice values)', async () => {
    const main = os.getPriority(0);
    const before = threadNiceness();
    const db = await openPglite({ loadDataDir: await pgliteTemplate(), thread: true });
    try {
      const added = [...threadNiceness()].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
      expect(added).toContain(Math.min(19, main + HELPER_THREAD_NICENESS));
      expect(os.getPriority(0)).toBe(main);
    } finally {
      await db.close();
    }
  });
});
