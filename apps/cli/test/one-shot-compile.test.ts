import { describe, expect, it } from 'vitest';
import { isOneShot } from '../src/one-shot-compile.ts';

describe('which commands skip the optimising WebAssembly compile', () => {
  it('one-shot commands and a save that leaves indexing to the worker do', () => {
    for (const args of [['sources'], ['ask', 'q'], ['migrate'], ['token', 'list'], ['sync', 'list'], ['doctor'], ['sweep'], ['register-commands'], ['save', 'a.md']]) {
      expect(isOneShot(args), args.join(' ')).toBe(true);
    }
  });

  it('servers, evals, re-embedding and a save that indexes in the process do not', () => {
    for (const args of [[], ['start'], ['worker'], ['mcp'], ['eval', '--questions', 'q.jsonl'], ['reembed'], ['save', 'docs', '--wait'], ['--help']]) {
      expect(isOneShot(args), args.join(' ')).toBe(false);
    }
  });
});
