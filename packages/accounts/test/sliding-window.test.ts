import { expect, it } from 'vitest';
import { slidingDecision, type Counter } from '../src/rate-limit/sliding-window.ts';

const LIMIT = { limit: 10, windowSeconds: 900 };
const W = 900_000;
const START = 2000 * W;

/** Hits the counter at each time in turn, as the limiter would, returning each decision. */
function run(times: number[], from?: Counter) {
  let counter = from;
  return times.map((at) => {
    const decision = slidingDecision(counter, LIMIT, at);
    counter = decision.counter;
    return decision;
  });
}

it('admits the limit within a window and refuses the rest, counting only admitted hits', () => {
  const decisions = run(Array.from({ length: 12 }, (_, i) => START + 1000 * i));
  expect(decisions.map((d) => d.allowed)).toEqual([...Array(10).fill(true), false, false]);
  expect(decisions[11]?.counter.hits).toBe(10);
});

it('does not grant a second allowance across a window boundary (a fixed window would admit 20 here)', () => {
  // Ten hits in the last seconds of one window, twelve in the first seconds of the next.
  const times = [...Array.from({ length: 10 }, (_, i) => START + W - 10_000 + i * 1000), ...Array.from({ length: 12 }, (_, i) => START + W + i * 1000)];
  const decisions = run(times);
  expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
  expect(decisions.at(-1)?.retryAfterSeconds).toBeGreaterThan(60);
});

it('admits again as the previous window ages, at the time the refusal named', () => {
  const full = run(Array.from({ length: 10 }, (_, i) => START + i * 1000)).at(-1)?.counter;
  const refused = slidingDecision(full, LIMIT, START + W + 1000);
  expect(refused.allowed).toBe(false);
  // Ten admitted last window: one more fits once a tenth of it lies outside the sliding window.
  expect(refused.retryAfterSeconds).toBe(90 - 1);
  const later = START + W + 1000 + refused.retryAfterSeconds * 1000;
  expect(slidingDecision(refused.counter, LIMIT, later - 1000).allowed).toBe(false);
  expect(slidingDecision(refused.counter, LIMIT, later).allowed).toBe(true);
});

it('names a wait past the window when the current window alone is full', () => {
  const full = run(Array.from({ length: 10 }, (_, i) => START + i * 1000)).at(-1)?.counter;
  const refused = slidingDecision(full, LIMIT, START + 60_000);
  expect(refused.allowed).toBe(false);
  const later = START + 60_000 + refused.retryAfterSeconds * 1000;
  expect(slidingDecision(refused.counter, LIMIT, later).allowed).toBe(true);
  expect(slidingDecision(refused.counter, LIMIT, later - 2000).allowed).toBe(false);
});

it('forgets a bucket idle for more than a window, and refuses everything under a limit of 0', () => {
  const full = run(Array.from({ length: 10 }, (_, i) => START + i * 1000)).at(-1)?.counter;
  expect(slidingDecision(full, LIMIT, START + 2 * W + 5).allowed).toBe(true);
  expect(slidingDecision(full, LIMIT, START + 2 * W + 5).counter).toEqual({ windowStartMs: START + 2 * W, hits: 1, previousHits: 0 });
  const none = slidingDecision(undefined, { limit: 0, windowSeconds: 60 }, START);
  expect(none.allowed).toBe(false);
  expect(none.counter.hits).toBe(0);
});
