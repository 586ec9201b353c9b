// The modules `brain`'s threads and child processes start from, compiled with its main module
// (compiled-main.js). Each one's bootstrap (the `*-bootstrap.mjs` beside it) starts it through
// `@brain/thread-entry`, which looks it up in BRAIN_COMPILED_ENTRIES and registers tsx only when it
// is not there; a test checks that every bootstrap's entry is listed here.
export const THREAD_ENTRIES = [
  'packages/db/src/pglite-thread/worker-main.ts',
  'packages/ingest/src/cpu-thread/thread-main.ts',
  'apps/cli/src/services/answering-thread/thread-main.ts',
  'packages/extract/src/sandbox/child-main.ts',
];
