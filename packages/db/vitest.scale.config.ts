import { defineConfig } from 'vitest/config';
import shared from './src/testing/vitest-config.ts';
import { SCALE_SUITES } from './vitest.config.ts';

// The suites `npm test` leaves out for time (vitest.config.ts), on both engines like every other:
// `npm run test:scale`, a CI step of its own. Spread, not mergeConfig, which would add these to
// the shared include (every suite) instead of replacing it.
export default defineConfig({ ...shared, test: { ...shared.test, isolate: true, include: SCALE_SUITES } });
