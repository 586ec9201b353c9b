import fs from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { HELPER_THREAD_NICENESS, openPglite, yieldToMainThread } from '../src/index.ts';
import { pgliteTemplate } from '../src/testing/index.ts';

/** Each thread of this process → its nice value (field 19 of /proc/self/task/<tid>/stat). */
function threadNiceness(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(tid, Number(fields[16]));
  }
  return out;
}

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
