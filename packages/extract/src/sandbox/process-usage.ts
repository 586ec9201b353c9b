import fs from 'node:fs';

export interface ProcessUsage {
  /** Resident memory: heap, ArrayBuffers, native allocations — what V8's heap limit misses. */
  rssMb: number;
  /** CPU time (user + system) since the process started. */
  cpuMs: number;
}

// Linux reports CPU time in clock ticks; USER_HZ is 100 on every mainstream kernel build.
const MS_PER_TICK = 10;

/**
 * Another process's memory and CPU, read from /proc (Linux). Undefined where there is no /proc
 * (macOS, Windows): there only the heap limit and the wall clock bound the sandbox.
 */
export function readProcessUsage(pid: number): ProcessUsage | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'latin1');
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
    // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    if (kb === undefined || !Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
    return { rssMb: Number(kb) / 1024, cpuMs: (utime + stime) * MS_PER_TICK };
  } catch {
    return undefined;
  }
}
