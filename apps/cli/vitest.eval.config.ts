import { defineConfig } from 'vitest/config';
import shared from '../../packages/db/src/testing/vitest-config.ts';
import { EVAL_SUITES } from './vitest.config.ts';

/** `npm run test:eval`: `brain eval` and `brain ask` over small corpora, in `brain` processes. */
export default defineConfig({ ...shared, test: { ...shared.test, maxWorkers: 2, include: EVAL_SUITES } });
