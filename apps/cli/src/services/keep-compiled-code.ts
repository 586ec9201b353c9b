import v8 from 'node:v8';

/**
 * Keeps the bytecode of functions that have not run for a while. V8 drops a function's bytecode
 * (and with it its optimised code) after five major garbage collections without a call; a quiet
 * instance collects that often while idle (the memory reducer, the worker's polling), so the
 * first interactions after a lull paid the cold path again: compiling the acknowledgement's
 * code anew, up to ~0.9 s for the first acknowledgements of a busy 2-core machine (bench:ack).
 * The cost is the memory of bytecode kept; V8 reads the flag at each collection, so setting it
 * at startup is enough. Process-wide: every thread's isolate keeps its bytecode too.
 */
export function keepCompiledCode(): void {
  v8.setFlagsFromString('--no-flush-bytecode');
}
