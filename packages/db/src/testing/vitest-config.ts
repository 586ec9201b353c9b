import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { TEST_NODE_FLAGS } from './node-flags.ts';

/**
 * The vitest settings every package shares: database templates built once, generous DB timeouts.
 * One process runs a package's test files one after another (`isolate: false`): importing the
 * workspace packages again for every file cost more than most files' tests (apps/web: 81 s of
 * imports in 291 s, against 7 s in 98 s). Each suite still gets a database of its own, and no
 * test mocks a module, so what a file leaves in the module cache is only what a process keeps.
 */
export default defineConfig({
  test: {
    globalSetup: [fileURLToPath(new URL('./global-setup.ts', import.meta.url))],
    // Generous: a timeout here only catches a hang, and CI's shared two-core machines, running two
    // packages' suites at once beside PostgreSQL and `brain` child processes, have taken over 60 s
    // for a test that takes 5 alone.
    testTimeout: 180_000,
    hookTimeout: 120_000,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    execArgv: [...TEST_NODE_FLAGS],
    isolate: false,
  },
});
