// The ingestion CPU thread starts here. Plain JavaScript on purpose: it runs before TypeScript
// support exists in this thread.
const { startEntry } = await import('@brain/thread-entry');
await startEntry(new URL('./thread-main.ts', import.meta.url));
