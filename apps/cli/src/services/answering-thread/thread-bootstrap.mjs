// The answering thread starts here. Plain JavaScript on purpose: it runs before TypeScript
// support exists in this thread.
const { register } = await import('tsx/esm/api');
register();
await import('./thread-main.ts');
