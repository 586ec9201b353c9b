/** Seeded randomness for the plan of the synthetic data: the same seed gives the same workspaces. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  int(maxExclusive: number): number;
  pick<T>(items: readonly T[]): T;
  shuffle<T>(items: readonly T[]): T[];
}

export function seededRandom(seed: number): Random {
  // splitmix32: tiny, fast, and good enough to choose sizes and topics.
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  };
  const int = (maxExclusive: number): number => Math.floor(next() * maxExclusive);
  return {
    next,
    int,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[int(items.length)] as (typeof items)[number];
    },
    shuffle: (items) => {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(i + 1);
        [out[i], out[j]] = [out[j] as (typeof out)[number], out[i] as (typeof out)[number]];
      }
      return out;
    },
  };
}

/** Draws ranks 0..n-1 with probability proportional to (rank + 1)^-s. */
export function zipfSampler(n: number, s: number, random: Random): () => number {
  const cumulative: number[] = [];
  let total = 0;
  for (let r = 1; r <= n; r++) {
    total += r ** -s;
    cumulative.push(total);
  }
  return () => {
    const target = random.next() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** A value for PostgreSQL's setseed() (which takes [-1, 1]) from the bench seed and a salt per use. */
export function pgSeed(seed: number, salt: number): number {
  return (((seed * 31 + salt) % 10_000) / 10_000) * 2 - 1;
}
