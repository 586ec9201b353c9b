// A long-lived command in miniature for driver-guard.test.ts: onShutdown's drain, then the
// TypeError postgres.js 3.4.9 throws from a timer after a connection closed under a commit
// (same message, thrown from a function of the same name), or an unrelated one.
import { createLogger } from '@brain/observability';
import { onShutdown } from '../src/shutdown.ts';

const logger = createLogger({ name: 'guard-child', level: 'info' });
onShutdown(logger, async () => {
  process.stdout.write('drained\n');
});
const nextWrite = (socket: { write(): void } | null) => (socket as { write(): void }).write();
setImmediate(() => (process.argv[2] === 'other' ? (() => { throw new Error('something else broke'); })() : nextWrite(null)));
// Kept alive like a server, until the guard drains and exits.
setTimeout(() => process.stdout.write('still running\n'), 10_000);
