import { configDefaults, mergeConfig } from 'vitest/config';
import shared from './src/testing/vitest-config.ts';

// A process per file here: this package's suites compute rather than import (103 CPU-s isolated,
// 92 shared), and with one shared process match-artifacts' "vector leg is flat" case on
// PostgreSQL failed once in a full run while passing alone; not worth the few seconds.
// Two files at a time: this package is usually the last one running in `npm test`, and each of
// its files keeps about one core busy (PGlite's single thread), so one at a time left the other
// core idle for its last two or three minutes.
// match-artifacts.test.ts builds a 10,000-passage HNSW index (about a minute of PGlite's WASM on
// one core, at the end of `npm test`, which ran at 10 min 0 s): it runs as a step of its own in CI,
// `npm run test:scale` (vitest.scale.config.ts), and on the Supabase-like server.
export const SCALE_SUITES = ['test/match-artifacts.test.ts'];
export default mergeConfig(shared, { test: { isolate: true, maxWorkers: 2, exclude: [...configDefaults.exclude, ...SCALE_SUITES] } });
