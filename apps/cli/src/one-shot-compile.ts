import v8 from 'node:v8';

/** Commands that open the database, do one thing and exit. */
const ONE_SHOT = new Set(['sources', 'ask', 'migrate', 'sweep', 'token', 'sync', 'doctor', 'register-commands']);

/** Whether `brain <args>` runs for a moment only: a one-shot command, or `save` that leaves the indexing to the worker. */
export function isOneShot(args: readonly string[]): boolean {
  const [command] = args;
  if (command === undefined) return false;
  if (command === 'save') return !args.includes('--wait');
  return ONE_SHOT.has(command);
}

/**
 * V8 compiles the embedded database's 9 MB of WebAssembly twice: at once with its baseline
 * compiler (Liftoff), then again in the background with its optimising one (TurboFan) for the
 * code that runs often. A one-shot command is over before the second compile pays for itself:
 * `brain sources` on the embedded database took 4.6 CPU s and 3.1 s by default, 3.1 CPU s and
 * 2.4 s with Liftoff only. Servers, `eval`, `reembed` and `save --wait` run long enough to gain
 * from the optimised code and keep both. Must run before the first WebAssembly compile.
 */
export function compileForOneShot(args: readonly string[]): boolean {
  if (!isOneShot(args)) return false;
  v8.setFlagsFromString('--liftoff-only');
  return true;
}
