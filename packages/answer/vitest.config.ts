export { default } from '../db/src/testing/vitest-config.ts';
