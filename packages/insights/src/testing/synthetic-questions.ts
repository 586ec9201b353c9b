// The vitest-free entry: benchmarks import this module outside the test runner.
import { prng } from '@brain/db/testing/prng';
import type { SeededSource } from './seed-sources.ts';
import type { SeedQuestion } from './seed-telemetry.ts';

const TOPICS = ['refund policy', 'deploy steps', 'meeting notes', 'API keys', 'onboarding', 'pricing', 'roadmap', 'release notes', 'style guide', 'incident review'];

/**
 * Questions that look like a community's traffic: spread over `days`, about 80 % answered with
 * up to five passages whose similarities fall off by rank, 👍 on about one answer in ten and 👎
 * on one in thirty, stage latencies with a long tail.
 */
export function syntheticQuestions(options: { count: number; sources: readonly SeededSource[]; days: number; seed?: number; now?: number }): SeedQuestion[] {
  const random = prng(options.seed ?? 42);
  const now = options.now ?? Date.now();
  const ready = options.sources.filter((s) => s.chunkIds.length > 0);
  const tail = (median: number) => Math.round(median * Math.exp((random() - 0.5) * 1.2 + (random() < 0.05 ? 1.5 : 0)) * 10) / 10;
  return Array.from({ length: options.count }, (_, i): SeedQuestion => {
    const top = 0.25 + random() * 0.6;
    const found = ready.length > 0 && random() < 0.9;
    const retrieved = found
      ? Array.from({ length: 1 + Math.floor(random() * 5) }, (_, r) => {
          const source = ready[Math.floor(random() * ready.length)] as SeededSource;
          return {
            chunk_id: source.chunkIds[Math.floor(random() * source.chunkIds.length)] as string,
            artifact_id: source.artifactId,
            similarity: Math.max(0.15, Math.round((top - r * 0.04 - random() * 0.03) * 1000) / 1000),
            rank: r + 1,
          };
        })
      : [];
    const grounded = retrieved.length > 0 && random() < 0.88;
    const cited = grounded ? retrieved.slice(0, 1 + Math.floor(random() * Math.min(2, retrieved.length))).map((r, n) => ({ n: n + 1, chunk_id: r.chunk_id, artifact_id: r.artifact_id, rank: r.rank })) : [];
    const embed = tail(35);
    const search = tail(12);
    const generate = retrieved.length > 0 ? tail(850) : undefined;
    const vote = random();
    return {
      question: `How do we handle ${TOPICS[i % TOPICS.length]} (#${i})?`,
      grounded,
      answerer: retrieved.length > 0 ? 'llm' : 'none',
      model: retrieved.length > 0 ? 'gpt-4o-mini' : null,
      retrieved,
      cited,
      latency: { embed, search, ...(generate !== undefined ? { generate } : {}), total: Math.round((embed + search + (generate ?? 0) + 3) * 10) / 10 },
      feedback: grounded && vote < 0.1 ? 'up' : vote > 0.967 ? 'down' : null,
      createdAt: new Date(now - random() * options.days * 86_400_000),
    };
  });
}
