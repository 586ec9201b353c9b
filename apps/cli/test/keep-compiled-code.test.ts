import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// `brain start` keeps its compiled code through idle collections (keep-compiled-code.ts): without
// it, V8 drops what has not run for five major collections, the acknowledgement path included.
const fixture = new URL('./fixtures/flush-bytecode.mjs', import.meta.url);

function droppedFunctions(mode: 'keep' | 'default'): number {
  // --bytecode-old-age=1: V8 drops unused bytecode after one major collection instead of five, so a
  // dozen collections show it (1.5 CPU s a run, against 5.7 for the sixty that age 5 needs).
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--bytecode-old-age=1', '--trace-flush-bytecode', fixture.pathname, mode], { encoding: 'utf8', timeout: 60_000 });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toContain('kept 300000');
  return run.stdout.split('\n').filter((line) => line.startsWith('[discarding compiled metadata')).length;
}

describe('compiled code through idle garbage collections', () => {
  it('is dropped by default (the case this guards against), and kept after keepCompiledCode', () => {
    expect(droppedFunctions('default')).toBeGreaterThan(0);
    expect(droppedFunctions('keep')).toBe(0);
  });
});
