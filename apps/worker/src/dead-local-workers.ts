import os from 'node:os';
import { isProcessAlive, type Database } from '@brain/db';
import { runningJobHolders } from '@brain/ingest';

/** The workers started in this process and not yet stopped: one process may run several. */
const liveHere = new Set<string>();

export function workerStarted(workerId: string): void {
  liveHere.add(workerId);
}

export function workerStopped(workerId: string): void {
  liveHere.delete(workerId);
}

/**
 * Workers of this machine (ids host:pid:random, as startWorker makes them) that hold running jobs but are dead: their process is gone (kill -9,
 * OOM), or it is this process and they are not among its live workers (a restarted container
 * whose new worker got its predecessor's pid). Their jobs need not wait out the lease. Holders on
 * other machines are never judged here: only their lease says they are gone. This relies on
 * each machine (container) having a host name of its own, as worker ids already do.
 */
export async function deadLocalWorkers(db: Database, isAlive: (pid: number) => boolean = isProcessAlive): Promise<string[]> {
  const host = os.hostname();
  const holders = await runningJobHolders(db, `${host}:`);
  return holders.filter((id) => {
    const match = /^(\d+):[0-9a-f]+$/.exec(id.slice(host.length + 1));
    if (!match) return false;
    const pid = Number(match[1]);
    return pid === process.pid ? !liveHere.has(id) : !isAlive(pid);
  });
}
