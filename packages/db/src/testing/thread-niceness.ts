import fs from 'node:fs';

function threadStats(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    out.set(tid, stat.slice(stat.lastIndexOf(')') + 2).split(' '));
  }
  return out;
}

/** Each thread of this process → its nice value (field 19 of /proc/self/task/<tid>/stat). Linux only. */
export function threadNiceness(): Map<string, number> {
  return new Map([...threadStats()].map(([tid, fields]) => [tid, Number(fields[16])]));
}

/** Each thread of this process → its scheduling policy (field 41: 0 normal, 5 SCHED_IDLE). Linux only. */
export function threadPolicies(): Map<string, number> {
  return new Map([...threadStats()].map(([tid, fields]) => [tid, Number(fields[38])]));
}

/** Each thread of this process → the CPU it has used, user and system, in clock ticks (fields 14 and 15). Linux only. */
export function threadCpuTicks(): Map<string, number> {
  return new Map([...threadStats()].map(([tid, fields]) => [tid, Number(fields[11]) + Number(fields[12])]));
}
