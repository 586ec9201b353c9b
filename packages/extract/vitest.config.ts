import { defineConfig } from 'vitest/config';

// No database here. Sandbox processes cold-start in seconds on a loaded machine: generous timeouts.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
