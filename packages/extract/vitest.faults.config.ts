import { defineConfig } from 'vitest/config';
import { FAULT_SUITES, settings } from './vitest.config.ts';

/** `npm run test:faults` (this package's part): the hostile documents of vitest.config.ts. */
export default defineConfig({ test: { ...settings, include: FAULT_SUITES } });
