// The embedded database's thread starts here. Plain JavaScript on purpose: it runs before
// TypeScript support exists in this thread.
//
// PGlite loads first, natively: once in the module cache, tsx's loader never touches its
// megabytes of JavaScript.
await import('@electric-sql/pglite');
await import('@electric-sql/pglite-pgvector');

const { startEntry } = await import('@brain/thread-entry');
await startEntry(new URL('./worker-main.ts', import.meta.url));
