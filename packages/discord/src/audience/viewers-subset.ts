import type { ChannelFacts, GuildFacts } from './guild-facts.ts';
import { Bits, readBits } from './permissions.ts';

/**
 * True only when everyone who can read `target` can also read `source`, judged from roles and
 * overwrites alone (research §4.5). Exact for role combinations, without enumerating them: in
 * one channel, a member's verdict depends on their role set only through ORs of per-role bits
 * (administrator; base view/history/connect; the role overwrites' allow and deny on each of the
 * two channels). The reachable values of those ORs are the OR-closure of the roles' signatures
 * starting from @everyone's; the implication "reads target ⇒ reads source" is checked for each.
 * Member overwrites that could let someone into the target or keep them out of the source, and
 * overwrites naming a role we do not know, make it uncertain: false (fail closed).
 */
export function viewersSubset(facts: GuildFacts, target: ChannelFacts, source: ChannelFacts): boolean {
  if (target.id === source.id) return true;
  const needT = readBits(target);
  const needS = readBits(source);
  if (target.overwrites.some((o) => o.type === 1 && (o.allow & needT) !== 0n)) return false;
  if (source.overwrites.some((o) => o.type === 1 && (o.deny & needS) !== 0n)) return false;
  for (const o of [...target.overwrites, ...source.overwrites]) {
    if (o.type === 0 && !facts.roles.has(o.id)) return false;
  }

  const mask = needT | needS;
  const lanes = laneBits(mask);
  const pack = (bits: bigint) => compress(bits & mask, lanes);
  const width = BigInt(lanes.length);
  const roleOverwrite = (channel: ChannelFacts, roleId: string) =>
    roleId === facts.guildId ? undefined : channel.overwrites.find((o) => o.type === 0 && o.id === roleId);

  // A signature: admin | base | target deny | target allow | source deny | source allow, packed.
  const signature = (roleId: string, permissions: bigint): bigint => {
    const t = roleOverwrite(target, roleId);
    const s = roleOverwrite(source, roleId);
    const fields = [pack(permissions), pack(t?.deny ?? 0n), pack(t?.allow ?? 0n), pack(s?.deny ?? 0n), pack(s?.allow ?? 0n)];
    let sig = (permissions & Bits.Administrator) !== 0n ? 1n : 0n;
    for (const f of fields) sig = (sig << width) | f;
    return sig;
  };
  const field = (sig: bigint, index: number) => (sig >> (width * BigInt(4 - index))) & ((1n << width) - 1n);
  const isAdmin = (sig: bigint) => (sig >> (width * 5n)) !== 0n;

  let reachable = new Set<bigint>([signature(facts.guildId, facts.roles.get(facts.guildId) ?? 0n)]);
  for (const [roleId, permissions] of facts.roles) {
    if (roleId === facts.guildId) continue;
    const sig = signature(roleId, permissions);
    const next = new Set(reachable);
    for (const s of reachable) next.add(s | sig);
    reachable = next;
  }

  const everyoneT = target.overwrites.find((o) => o.type === 0 && o.id === facts.guildId);
  const everyoneS = source.overwrites.find((o) => o.type === 0 && o.id === facts.guildId);
  const reads = (sig: bigint, everyone: typeof everyoneT, denyIdx: number, allowIdx: number, need: bigint) => {
    let p = field(sig, 0);
    if (everyone) p = (p & ~pack(everyone.deny)) | pack(everyone.allow);
    p = (p & ~field(sig, denyIdx)) | field(sig, allowIdx);
    const n = pack(need);
    return (p & n) === n;
  };
  for (const sig of reachable) {
    if (isAdmin(sig)) continue;
    if (reads(sig, everyoneT, 1, 2, needT) && !reads(sig, everyoneS, 3, 4, needS)) return false;
  }
  return true;
}

function laneBits(mask: bigint): bigint[] {
  const lanes: bigint[] = [];
  for (let bit = 0n; bit < 64n; bit++) if ((mask >> bit) & 1n) lanes.push(bit);
  return lanes;
}

function compress(bits: bigint, lanes: readonly bigint[]): bigint {
  let out = 0n;
  lanes.forEach((bit, i) => {
    if ((bits >> bit) & 1n) out |= 1n << BigInt(i);
  });
  return out;
}
