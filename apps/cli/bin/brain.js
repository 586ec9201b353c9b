#!/usr/bin/env node
// The workspace packages are TypeScript, and there is no build step between a clone and a running
// bot: the sources run compiled into a cached bundle (compiled-main.js), or through tsx when they
// cannot be (or when BRAIN_COMPILE=off, for stack traces that point into the sources).
import path from 'node:path';
import { compiledMain, REPO_ROOT } from './compiled-main.js';

const entry = path.join(REPO_ROOT, 'apps/cli/src/main.ts');
const compiled =
  process.env.BRAIN_COMPILE?.trim().toLowerCase() === 'off'
    ? undefined
    : await compiledMain({ root: REPO_ROOT, entry, cacheDir: path.join(REPO_ROOT, 'node_modules/.cache/company-brain') });

if (compiled) {
  await import(compiled);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
