// The sandbox process's entry point. Plain JavaScript on purpose: it runs before TypeScript
// support exists in this process.
//
// The parsers load first, natively: once in Node's module cache, tsx's loader never touches
// them (routing pdf.js's 2 MB of JavaScript through it costs ~2 s and ~100 MB per process).
// Importing pdf.js's worker module here also installs `globalThis.pdfjsWorker`, so pdf.js runs
// its "worker" in this process instead of loading one later.
await import('pdf-parse');
await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
await import('linkedom');
await import('@mozilla/readability');
await import('htmlparser2');

const { startEntry } = await import('@brain/thread-entry');
await startEntry(new URL('./child-main.ts', import.meta.url));
