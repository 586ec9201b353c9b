import { mergeConfig } from 'vitest/config';
import shared from '../../packages/db/src/testing/vitest-config.ts';

/** The browser suites run as `npm run test:browser` (vitest.browser.config.ts), a CI step of their own. */
export const BROWSER_SUITES = 'test/**/*.browser.test.ts';

/**
 * `npm run test:faults` (vitest.faults.config.ts), a CI step of its own: hostile documents through
 * `brain save`, and `brain` processes killed, signalled or shut down with work in flight.
 */
export const FAULT_SUITES = [
  'test/hostile-documents.test.ts',
  'test/sync-kill-resume.test.ts',
  'test/shutdown-in-flight.test.ts',
  'test/worker-sigterm.test.ts',
];

/**
 * `npm run test:eval` (vitest.eval.config.ts), a CI step of its own: `brain eval` over small
 * corpora (retrieval and answer figures, baselines, page by page, the chat leg) and `brain ask`
 * against what it saved.
 */
export const EVAL_SUITES = ['test/eval-and-ask.test.ts', 'test/eval-each-page.test.ts', 'test/eval-answers-chat.test.ts'];

// Vitest defaults to one worker on a 2-core machine, and most of these files wait on `brain` child
// processes, browsers and fakes rather than compute: two files at a time keep both cores busy when
// this package, the longest, is the last one running (see turbo.json).
// The four browser suites (a Chromium beside a `brain start` each: 3 min of this package's 11 in a
// clean-clone CI run) are left out of `npm test` to keep it inside its 10 minutes, and so are the
// fault suites (about 80 s of this package's lane in such a run, when npm test still took 10 min),
// and the eval suites (about 110 s of it in a clean-clone run whose npm test took 10 min 26 s).
export default mergeConfig(shared, { test: { maxWorkers: 2, exclude: ['**/node_modules/**', BROWSER_SUITES, ...FAULT_SUITES, ...EVAL_SUITES] } });
