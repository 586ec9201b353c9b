import { defineConfig } from 'vitest/config';
import shared from '../../packages/db/src/testing/vitest-config.ts';
import { BROWSER_SUITES } from './vitest.config.ts';

/** `npm run test:browser`: the suites that drive Debian's Chromium (bash .ci/provision-chromium.sh). */
export default defineConfig({ ...shared, test: { ...shared.test, maxWorkers: 2, include: [BROWSER_SUITES] } });
