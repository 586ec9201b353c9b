export { default } from '../../packages/db/src/testing/vitest-config.ts';
