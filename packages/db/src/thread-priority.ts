import os from 'node:os';

/** How much nicer (in nice steps) a helper thread runs than the thread that acknowledges interactions. */
export const HELPER_THREAD_NICENESS = 10;

/**
 * Called first thing in a helper thread (the database's, the answering one, ingestion's): the
 * calling thread gives way to the process's main thread, which verifies and acknowledges
 * interactions within Discord's 3 s and needs a core the moment a request arrives. On a machine
 * with spare cores nothing changes; on a busy one the helpers' work waits, not the
 * acknowledgements. Linux only: there a thread's nice value is its own (setpriority on "this
 * process" changes the calling thread), while elsewhere it would slow the whole process.
 * Returns the thread's nice value afterwards, or undefined when it was left alone.
 */
export function yieldToMainThread(platform: NodeJS.Platform = process.platform): number | undefined {
  if (platform !== 'linux') return undefined;
  try {
    const current = os.getPriority(0);
    os.setPriority(0, Math.min(19, current + HELPER_THREAD_NICENESS));
    return os.getPriority(0);
  } catch {
    // A sandbox that forbids it: the thread keeps its priority, which is only slower under load.
    return undefined;
  }
}
