// What other processes took from the machine while a step ran: the CPU busy on every core,
// less what this bench's own process tree used (the app, the bare server, the load generators,
// the sink, the docs site, the app's sandboxes). A ratio that misses while others took a core is
// the machine's doing, not the app's. Linux only (/proc); undefined elsewhere.
import fs from 'node:fs';

export interface CpuMark {
  at: number;
  busyTicks: number;
  ownTicks: number;
}

const TICKS_PER_SECOND = 100;

function processTicks(pid: number): { ppid: number; ticks: number } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, and the reaped children's cutime, cstime (a finished load generator lands there).
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]) };
  } catch {
    return undefined;
  }
}

export function markCpu(): CpuMark | undefined {
  if (process.platform !== 'linux') return undefined;
  const cpu = (fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = cpu;
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of fs.readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const s = processTicks(pid);
    if (s) stats.set(pid, s);
  }
  // This process and its descendants.
  const own = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, s] of stats) {
      if (own.has(pid) || !own.has(s.ppid)) continue;
      own.add(pid);
      grew = true;
    }
  }
  let ownTicks = 0;
  for (const pid of own) ownTicks += stats.get(pid)?.ticks ?? 0;
  return { at: performance.now(), busyTicks: user + nice + system + irq + softirq + steal, ownTicks };
}

/** Other processes' CPU between two marks, in cores (1 = one core busy the whole time). */
export function otherCores(from: CpuMark | undefined, to: CpuMark | undefined): number | undefined {
  if (!from || !to) return undefined;
  const seconds = (to.at - from.at) / 1000;
  const others = to.busyTicks - from.busyTicks - (to.ownTicks - from.ownTicks);
  return Math.round((Math.max(0, others) / TICKS_PER_SECOND / seconds) * 100) / 100;
}
