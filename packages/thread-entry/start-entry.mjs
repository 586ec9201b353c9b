// Plain JavaScript on purpose: a thread or child process of `brain` imports this before TypeScript
// support exists in it. The one module of the packages that reads the environment, and only the
// variable the launcher sets (apps/cli/bin/brain.js): it says how code loads, not how it behaves.
import { existsSync } from 'node:fs';

/**
 * Starts `source` (the file URL of a thread's or child process's TypeScript entry): from its
 * compiled copy when the compiled `brain` that started this process named one in
 * BRAIN_COMPILED_ENTRIES, otherwise from the sources through tsx (under the test runner, with
 * BRAIN_COMPILE=off, or when a build was removed since: sources changed while a long-running
 * `brain` kept going).
 */
export async function startEntry(source) {
  const compiled = JSON.parse(process.env.BRAIN_COMPILED_ENTRIES ?? '{}')[source.href];
  if (compiled && existsSync(new URL(compiled))) {
    await import(compiled);
    return;
  }
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
}
