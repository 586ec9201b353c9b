import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** How much nicer (in nice steps) a helper thread runs than the thread that acknowledges interactions. */
export const HELPER_THREAD_NICENESS = 10;

/** Linux's scheduling policy number for SCHED_IDLE (sched.h), as /proc/<pid>/task/<tid>/stat reports it. */
export const SCHED_IDLE = 5;

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
 * The thread also moves to the SCHED_IDLE policy, through util-linux's `chrt` (Node has no call
 * for it). A nice value alone let a helper finish its time slice before a woken main thread ran
 * (the kernel's EEVDF scheduler protects a running slice), and on two busy cores those few
 * milliseconds were what the slowest acknowledgements waited behind (bench:ack, idle at 300 req/s:
 * docs/discord.md). A SCHED_IDLE thread is preempted at once by any ordinary one. The price: on a
 * machine whose cores ordinary work keeps busy, the helpers get almost nothing until it eases.
 * Without `chrt`, or where the policy may not be changed, the nice value still applies.
 * Returns what was applied, or undefined when the thread was left alone.
 */
export function yieldToMainThread(platform: NodeJS.Platform = process.platform): ThreadYield | undefined {
  if (platform !== 'linux') return undefined;
  try {
    const current = os.getPriority(0);
    os.setPriority(0, Math.min(19, current + HELPER_THREAD_NICENESS));
    return { nice: os.getPriority(0), idlePolicy: idleSchedulingPolicy() };
  } catch {
    // A sandbox that forbids it: the thread keeps its priority, which is only slower under load.
    return undefined;
  }
}

function idleSchedulingPolicy(): boolean {
  try {
    const tid = path.basename(fs.readlinkSync('/proc/thread-self'));
    const result = spawnSync('chrt', ['--idle', '--pid', '0', tid], { stdio: 'ignore', timeout: 5_000 });
    return result.status === 0;
  } catch {
    return false;
  }
}
