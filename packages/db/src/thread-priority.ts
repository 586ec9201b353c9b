import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { getEnvironmentData, setEnvironmentData } from 'node:worker_threads';

/** How much nicer (in nice steps) a helper thread runs than the thread that acknowledges interactions. */
export const HELPER_THREAD_NICENESS = 10;

/** Linux's scheduling policy number for SCHED_IDLE (sched.h), as /proc/<pid>/task/<tid>/stat reports it. */
export const SCHED_IDLE = 5;

/**
 * How far helper threads give way to the main thread (BRAIN_HELPER_THREAD_PRIORITY):
 * - `nice` (the default): 10 nice steps below it. On busy cores the helpers get a smaller share,
 *   never none.
 * - `idle`: that, and Linux's SCHED_IDLE policy. Acknowledgements wait least, but the helpers (the
 *   embedded database among them) run only on cores nothing ordinary wants: a busy neighbour on the
 *   same machine can hold every answer and every save until it eases. For a machine of its own.
 * - `normal`: helper threads keep the main thread's priority.
 */
export type HelperThreadPriority = 'normal' | 'nice' | 'idle';

export const DEFAULT_HELPER_THREAD_PRIORITY: HelperThreadPriority = 'nice';

const PRIORITY_KEY = 'brain.helperThreadPriority';

/**
 * Sets the priority of every helper thread this thread starts from now on. A worker thread inherits
 * its parent's environment data, so one call at start-up reaches the database's thread, the
 * answering thread and ingestion's pool without each being told.
 */
export function setHelperThreadPriority(priority: HelperThreadPriority): void {
  setEnvironmentData(PRIORITY_KEY, priority);
}

/** The priority helper threads started from this thread take (the default unless one was set). */
export function helperThreadPriority(): HelperThreadPriority {
  const value = getEnvironmentData(PRIORITY_KEY);
  return value === 'normal' || value === 'nice' || value === 'idle' ? value : DEFAULT_HELPER_THREAD_PRIORITY;
}

export interface ThreadYield {
  /** The thread's nice value afterwards. */
  nice: number;
  /** Whether the thread now runs under SCHED_IDLE. */
  idlePolicy: boolean;
}

/**
 * Called first thing in a helper thread (the database's, the answering one, ingestion's): the
 * calling thread gives way to the process's main thread, which verifies and acknowledges
 * interactions within Discord's 3 s and needs a core the moment a request arrives. On a machine
 * with spare cores nothing changes; on a busy one the helpers' work waits, not the
 * acknowledgements. Linux only: there a thread's nice value is its own (setpriority on "this
 * process" changes the calling thread), while elsewhere it would slow the whole process.
 *
 * With `idle`, the thread also moves to the SCHED_IDLE policy, through util-linux's `chrt` (Node
 * has no call for it). A nice value alone lets a helper finish its time slice before a woken main
 * thread runs (the kernel's EEVDF scheduler protects a running slice); a SCHED_IDLE thread is
 * preempted at once. It is not the default because of its price, measured: with two ordinary busy
 * loops on the two cores, a threaded PGlite did not finish opening in 10 s under SCHED_IDLE
 * (nothing else ever left it a core). Without `chrt`, or where the policy may not be changed, the
 * nice value still applies. Returns what was applied, or undefined when the thread was left alone.
 */
export function yieldToMainThread(platform: NodeJS.Platform = process.platform, priority: HelperThreadPriority = helperThreadPriority()): ThreadYield | undefined {
  if (platform !== 'linux' || priority === 'normal') return undefined;
  try {
    const current = os.getPriority(0);
    os.setPriority(0, Math.min(19, current + HELPER_THREAD_NICENESS));
    return { nice: os.getPriority(0), idlePolicy: priority === 'idle' && idleSchedulingPolicy() };
  } catch {
    // A sandbox that forbids it: the thread keeps its priority, which is only slower under load.
    return undefined;
  }
}

/** The calling thread's kernel id (Linux). */
export function currentThreadId(): string {
  return path.basename(fs.readlinkSync('/proc/thread-self'));
}

function idleSchedulingPolicy(): boolean {
  try {
    const result = spawnSync('chrt', ['--idle', '--pid', '0', currentThreadId()], { stdio: 'ignore', timeout: 5_000 });
    return result.status === 0;
  } catch {
    return false;
  }
}

export interface RuntimeThreadsYield {
  /** Threads other than this one reniced (V8's platform workers; libuv's pool if it had started). */
  reniced: number;
}

/**
 * Called once by the main thread of a process that acknowledges interactions, before it starts
 * any helper thread. The helpers giving way (yieldToMainThread) is not enough: V8 does much of
 * every thread's garbage collection, and its optimising compiles, on platform threads of its own,
 * started with the process at the main thread's priority. The helpers' garbage was collected
 * there at full priority, beside the acknowledgements. So:
 * - young-generation collections (most of a helper's garbage) run on the collecting thread
 *   alone (V8's `--no-parallel-scavenge`), where that work gives way as the thread does. Only
 *   this flag: V8 reads it when a scavenge starts, and a scavenge never spans this call. Turning
 *   off its concurrent marking or sweeping at run time crashed V8 (a check failed) when a
 *   collection was under way, so those stay as they are;
 * - the threads there are now besides this one (V8's platform workers, and the module loader's
 *   thread when tsx is registered) go 10 nice steps lower: what they still do for this thread
 *   (parallel collection, background compiles, a late import) waits behind acknowledgements.
 * Measured with bench:ack, idle at 300 req/s (docs/discord.md). Linux only, as yieldToMainThread;
 * with `normal` nothing changes. Returns what was applied, or undefined when nothing was.
 */
export function yieldRuntimeThreads(platform: NodeJS.Platform = process.platform, priority: HelperThreadPriority = helperThreadPriority()): RuntimeThreadsYield | undefined {
  if (platform !== 'linux' || priority === 'normal') return undefined;
  v8.setFlagsFromString('--no-parallel-scavenge');
  let reniced = 0;
  let tids: string[] = [];
  try {
    tids = fs.readdirSync('/proc/self/task');
  } catch {
    return { reniced };
  }
  const self = currentThreadId();
  for (const tid of tids) {
    if (tid === self) continue;
    try {
      const id = Number(tid);
      os.setPriority(id, Math.min(19, os.getPriority(id) + HELPER_THREAD_NICENESS));
      reniced += 1;
    } catch {
      // Gone meanwhile, or a sandbox that forbids it: that thread keeps its priority.
    }
  }
  return { reniced };
}
