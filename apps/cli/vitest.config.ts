import { mergeConfig } from 'vitest/config';
import shared from '../../packages/db/src/testing/vitest-config.ts';

// Vitest defaults to one worker on a 2-core machine, and most of these files wait on `brain` child
// processes, browsers and fakes rather than compute: two files at a time keep both cores busy when
// this package, the longest, is the last one running (see turbo.json).
export default mergeConfig(shared, { test: { maxWorkers: 2 } });
