export { default } from './src/testing/vitest-config.ts';
