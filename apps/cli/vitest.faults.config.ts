import { defineConfig } from 'vitest/config';
import shared from '../../packages/db/src/testing/vitest-config.ts';
import { FAULT_SUITES } from './vitest.config.ts';

/** `npm run test:faults` (this package's part): hostile documents and killed or signalled `brain` processes. */
export default defineConfig({ ...shared, test: { ...shared.test, maxWorkers: 2, include: FAULT_SUITES } });
