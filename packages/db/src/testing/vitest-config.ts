import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The vitest settings every package shares: database templates built once, generous DB timeouts. */
export default defineConfig({
  test: {
    globalSetup: [fileURLToPath(new URL('./global-setup.ts', import.meta.url))],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
  },
});
