#!/usr/bin/env node
// The workspace packages are TypeScript, and there is no build step between a clone and a running
// bot: the sources run compiled into a cached bundle (compiled-main.js), or through tsx when they
// cannot be (or when BRAIN_COMPILE=off, for stack traces that point into the sources).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compiledEntries, REPO_ROOT } from './compiled-main.js';
import { THREAD_ENTRIES } from './thread-entries.js';

const main = path.join(REPO_ROOT, 'apps/cli/src/main.ts');
const compiled =
  process.env.BRAIN_COMPILE?.trim().toLowerCase() === 'off'
    ? undefined
    : await compiledEntries({
        root: REPO_ROOT,
        entries: [main, ...THREAD_ENTRIES.map((entry) => path.join(REPO_ROOT, entry))],
        cacheDir: path.join(REPO_ROOT, 'node_modules/.cache/company-brain'),
      });

if (compiled) {
  // The threads' bootstraps (and the extraction sandbox, through its pool) start their compiled
  // entry from this map instead of registering tsx: a thread through tsx cost a `brain` with a
  // database about 0.35 CPU s more.
  process.env.BRAIN_COMPILED_ENTRIES = JSON.stringify(compiled);
  await import(compiled[pathToFileURL(main).href]);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
