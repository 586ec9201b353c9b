import fs from 'node:fs';

/** Each thread of this process → its nice value (field 19 of /proc/self/task/<tid>/stat). Linux only. */
export function threadNiceness(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(tid, Number(fields[16]));
  }
  return out;
}
