import { configDefaults, defineConfig } from 'vitest/config';

/**
 * `npm run test:faults` (vitest.faults.config.ts), a CI step of its own: decompression bombs, deep
 * nesting, oversized pages and heap exhaustion in the sandbox (about 25 CPU s), left out of
 * `npm test` to keep it inside its 10 minutes.
 */
export const FAULT_SUITES = ['test/hostile.test.ts'];

// No database here. Sandbox processes cold-start in seconds on a loaded machine: generous timeouts.
export const settings = {
  include: ['test/**/*.test.ts'],
  testTimeout: 120_000,
  hookTimeout: 120_000,
  pool: 'forks' as const,
};

export default defineConfig({ test: { ...settings, exclude: [...configDefaults.exclude, ...FAULT_SUITES] } });
