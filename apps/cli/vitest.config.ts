import { mergeConfig } from 'vitest/config';
import shared from '../../packages/db/src/testing/vitest-config.ts';

/** The browser suites run as `npm run test:browser` (vitest.browser.config.ts), a CI step of their own. */
export const BROWSER_SUITES = 'test/**/*.browser.test.ts';

// Vitest defaults to one worker on a 2-core machine, and most of these files wait on `brain` child
// processes, browsers and fakes rather than compute: two files at a time keep both cores busy when
// this package, the longest, is the last one running (see turbo.json).
// The four browser suites (a Chromium beside a `brain start` each: 3 min of this package's 11 in a
// clean-clone CI run) are left out of `npm test` to keep it inside its 10 minutes.
export default mergeConfig(shared, { test: { maxWorkers: 2, exclude: ['**/node_modules/**', BROWSER_SUITES] } });
