// The fusions fusion-sweep.ts measures. Each restates one idea of issue 15 item 2.
import { rrf, type Fusion, type QuestionLegs } from './fusion-model.ts';

/** Share of passages holding the question's rarest lexeme (1 when it has none). */
function rarest(q: QuestionLegs): number {
  const passages = q.passages ?? 1;
  const dfs = q.lexemes.map((l) => l.df).filter((d) => d > 0);
  return dfs.length === 0 ? 1 : Math.min(...dfs) / Math.max(1, passages);
}

/** α·similarity + (1−α)·ts_rank / the best ts_rank of the question. */
export function normalised(alpha: number, depth = 40, decay = 0.7): Fusion {
  return {
    name: `normalised α=${alpha} depth=${depth} decay=${decay}`,
    depth,
    decay,
    score: (q, id, r) => {
      const sim = q.candidates[id]?.sim ?? 0;
      const kw = r.kRank !== null && r.kMax > 0 ? r.kRank / r.kMax : 0;
      return alpha * sim + (1 - alpha) * kw;
    },
  };
}

/** normalised(alpha), with alpha lowered to `flatAlpha` when the vector leg is flat (top−5th < gap). */
export function normalisedFlat(alpha: number, gap: number, flatAlpha: number, depth = 40): Fusion {
  return {
    name: `normalised α=${alpha}, α=${flatAlpha} when vector top−5th < ${gap}`,
    depth,
    score: (q, id, r) => {
      const top = q.candidates[q.vector[0] ?? '']?.sim ?? 0;
      const fifth = q.candidates[q.vector[4] ?? '']?.sim ?? 0;
      const a = q.vector.length > 0 && top - fifth < gap ? flatAlpha : alpha;
      const sim = q.candidates[id]?.sim ?? 0;
      const kw = r.kRank !== null && r.kMax > 0 ? r.kRank / r.kMax : 0;
      return a * sim + (1 - a) * kw;
    },
  };
}

/** RRF, the keyword leg weighted `wk` when the question's rarest lexeme is in ≤ share of passages. */
export function rareToken(share: number, wk: number, k = 60, depth = 40): Fusion {
  return {
    name: `rrf k=${k}, keyword ×${wk} when a lexeme is in ≤ ${share * 100}% of passages`,
    depth,
    score: (q, _id, r) => {
      const w = rarest(q) <= share ? wk : 1;
      return (r.v ? 1 / (k + r.v) : 0) + (r.k ? w / (k + r.k) : 0);
    },
  };
}

/** RRF plus a bonus for each leg's first `top` passages, so neither leg's best can fall out of the top k. */
export function legTops(top: number, k = 60, depth = 40): Fusion {
  return {
    name: `rrf k=${k} + each leg's top ${top} first`,
    depth,
    score: (_q, _id, r) => {
      const base = (r.v ? 1 / (k + r.v) : 0) + (r.k ? 1 / (k + r.k) : 0);
      const bonus = (r.v !== null && r.v <= top ? 1 : 0) + (r.k !== null && r.k <= top ? 1 : 0);
      return bonus + base;
    },
  };
}

/** Normalised, each leg divided by its own best: similarity / best similarity, ts_rank / best ts_rank. */
export function maxNormalised(alpha: number, depth = 40, decay = 0.7): Fusion {
  return {
    name: `max-normalised α=${alpha} depth=${depth} decay=${decay}`,
    depth,
    decay,
    score: (q, id, r) => {
      const best = Math.max(...q.vector.slice(0, depth).map((v) => q.candidates[v]?.sim ?? 0), 1e-9);
      const sim = (q.candidates[id]?.sim ?? 0) / best;
      const kw = r.kRank !== null && r.kMax > 0 ? r.kRank / r.kMax : 0;
      return alpha * sim + (1 - alpha) * kw;
    },
  };
}

/** Min-max normalised legs over each leg's candidates. */
export function minMax(alpha: number, depth = 40, decay = 0.7): Fusion {
  return {
    name: `min-max α=${alpha} depth=${depth} decay=${decay}`,
    depth,
    decay,
    score: (q, id, r) => {
      const sims = q.vector.slice(0, depth).map((v) => q.candidates[v]?.sim ?? 0);
      const [lo, hi] = [Math.min(...sims), Math.max(...sims)];
      const ranks = q.keyword.slice(0, depth).map((k) => k.rank);
      const [klo, khi] = [Math.min(...ranks), Math.max(...ranks)];
      const sim = Math.max(0, ((q.candidates[id]?.sim ?? 0) - lo) / Math.max(hi - lo, 1e-9));
      const kw = r.kRank !== null ? (r.kRank - klo) / Math.max(khi - klo, 1e-9) : 0;
      return alpha * sim + (1 - alpha) * kw;
    },
  };
}

/**
 * RRF, the keyword leg weighted `wk` when the vector leg is flat: its first passage is less than
 * `gap` more similar than its fifth, so the embedding does not single anything out.
 */
export function flatVector(gap: number, wk: number, k = 60, depth = 40, relative = false): Fusion {
  return {
    name: `rrf k=${k} depth=${depth}, keyword ×${wk} when the vector leg's top−5th similarity < ${gap}${relative ? ' × top' : ''}`,
    depth,
    score: (q, _id, r) => {
      const top = q.candidates[q.vector[0] ?? '']?.sim ?? 0;
      const fifth = q.candidates[q.vector[4] ?? '']?.sim ?? 0;
      const w = top - fifth < (relative ? gap * top : gap) ? wk : 1;
      return (r.v ? 1 / (k + r.v) : 0) + (r.k ? w / (k + r.k) : 0);
    },
  };
}

/** The better of the two legs' reciprocal ranks, plus `eps` of the other: each leg's best passages interleave. */
export function combMax(k: number, wk: number, eps: number, depth = 40, flat?: { gap: number; wk: number }): Fusion {
  return {
    name: `max of legs k=${k} wk=${wk} + ${eps}·other${flat ? `, keyword ×${flat.wk} when vector top−5th < ${flat.gap}` : ''}`,
    depth,
    score: (q, _id, r) => {
      let w = wk;
      if (flat) {
        const top = q.candidates[q.vector[0] ?? '']?.sim ?? 0;
        const fifth = q.candidates[q.vector[4] ?? '']?.sim ?? 0;
        if (top - fifth < flat.gap) w *= flat.wk;
      }
      const a = r.v ? 1 / (k + r.v) : 0;
      const b = r.k ? w / (k + r.k) : 0;
      return Math.max(a, b) + eps * Math.min(a, b);
    },
  };
}

export const CANDIDATE_GROUPS = ['first', 'flat', 'max', 'combo', 'adopted'] as const;
export type CandidateGroup = (typeof CANDIDATE_GROUPS)[number];

/** The rounds measured, in order: the first round's ideas, then the flat-vector rule, CombMAX, their combinations. */
export function candidates(group: CandidateGroup): Fusion[] {
  const out: Fusion[] = [rrf()];
  if (group === 'first') {
    for (const k of [10, 20, 30, 60, 100]) for (const wk of [0.5, 0.75, 1, 1.5, 2]) if (!(k === 60 && wk === 1)) out.push(rrf(k, 1, wk));
    for (const depth of [10, 20, 80, 120]) out.push(rrf(60, 1, 1, depth));
    for (const alpha of [0.3, 0.4, 0.5, 0.6, 0.7, 0.8]) out.push(normalised(alpha));
    for (const alpha of [0.5, 0.6, 0.7]) for (const decay of [0.5, 0.85, 1]) out.push(normalised(alpha, 40, decay));
    for (const share of [0.005, 0.01, 0.02, 0.05]) for (const wk of [1.5, 2, 3]) out.push(rareToken(share, wk));
    for (const top of [1, 2]) out.push(legTops(top));
    for (const alpha of [0.4, 0.5, 0.6, 0.7, 0.8]) out.push(maxNormalised(alpha));
    for (const alpha of [0.4, 0.5, 0.6, 0.7]) out.push(minMax(alpha));
  } else if (group === 'flat') {
    for (const k of [30, 60, 100]) for (const gap of [0.02, 0.025, 0.03, 0.035, 0.04, 0.05]) for (const wk of [1.5, 2, 3, 5, 10]) out.push(flatVector(gap, wk, k));
    for (const gap of [0.05, 0.08, 0.1, 0.15]) for (const wk of [2, 3, 5]) out.push(flatVector(gap, wk, 60, 40, true));
  } else if (group === 'max') {
    for (const k of [1, 5, 10, 30, 60]) for (const wk of [0.8, 1, 1.25]) for (const eps of [0, 0.25, 0.5]) out.push(combMax(k, wk, eps));
    for (const k of [5, 10, 60]) for (const eps of [0, 0.25, 0.5]) for (const gap of [0.025, 0.035]) out.push(combMax(k, 1, eps, 40, { gap, wk: 3 }));
  } else if (group === 'adopted') {
    // Around today's fusion (keyword ×5 when the vector leg is flat, RRF 60, depth 60), for a
    // keyword leg ranked another way (fusion-legs.ts --keyword).
    for (const k of [30, 60, 100]) for (const wk of [1, 2, 3, 5, 10]) for (const depth of [40, 60]) out.push(flatVector(0.025, wk, k, depth));
    for (const k of [30, 60]) for (const wk of [1.5, 2, 3]) out.push(rrf(k, 1, wk, 60));
  } else {
    for (const depth of [20, 30, 40, 60, 80]) for (const gap of [0.02, 0.025, 0.03]) for (const wk of [3, 5]) out.push(flatVector(gap, wk, 60, depth));
    for (const alpha of [0.6, 0.7, 0.8]) for (const gap of [0.025, 0.035]) for (const flatAlpha of [0.2, 0.3, 0.4]) out.push(normalisedFlat(alpha, gap, flatAlpha));
  }
  return out;
}
