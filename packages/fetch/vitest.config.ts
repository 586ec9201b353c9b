import { defineConfig } from 'vitest/config';

// No database here: the shared DB harness (and its template building) is not needed.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    pool: 'forks',
  },
});
