import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeMessage, snowflakeAt, startFakeDiscordHistory, type FakeDiscordHistory } from '@brain/testkit';
import { createDiscordHistory } from '../src/index.ts';

// discord.js REST against the fake's limits: the global 50/s is paced (and a global 429 waited
// out), and a route bucket announced in the headers is waited out, not hammered.
const start = Date.parse('2026-11-30T09:00:00Z');
const THREADS = Array.from({ length: 120 }, (_, i) => snowflakeAt(start + i * 1000));
const LONG = snowflakeAt(start - 3_600_000);
let history: FakeDiscordHistory;

beforeAll(async () => {
  history = await startFakeDiscordHistory();
  for (const id of THREADS) history.addMessages(id, [fakeMessage({ id, channelId: id, author: 'Ada', content: `hello from ${id}` })]);
  history.addMessages(LONG, Array.from({ length: 450 }, (_, i) => fakeMessage({ id: snowflakeAt(start - 3_000_000 + i * 1000), channelId: LONG, author: 'Ken', content: `m${i}` })));
});
afterAll(() => history.close());

describe('reading history under Discord’s rate limits', () => {
  it('120 threads read at once: paced to 50 requests a second, a global 429 waited out, every one read', async () => {
    const reader = createDiscordHistory({ apiBase: history.apiBase, botToken: 'paced' });
    const before = history.requests.length;
    const limitedBefore = history.rateLimitCounts().global;
    const began = Date.now();
    const read = await Promise.all(THREADS.map((id) => reader.readAll(id)));
    const took = Date.now() - began;
    expect(read.map((r) => r[0]?.content)).toEqual(THREADS.map((id) => `hello from ${id}`));
    // discord.js's own 1 s window need not line up with Discord's (a loaded machine delays
    // arrivals): the odd global 429 it meets is waited out and retried, never surfaced.
    const globals = history.rateLimitCounts().global - limitedBefore;
    expect(history.requests.length - before - globals).toBe(120);
    // 120 requests at 50 a second need three windows: two full ones, then the rest.
    expect(took).toBeGreaterThanOrEqual(2_000);
    expect(took).toBeLessThan(6_000);
  }, 20_000);

  it('a route bucket announced as 2 per second is waited out from its headers, not run into', async () => {
    history.setBucket(2, 1_000, 'messages');
    try {
      const reader = createDiscordHistory({ apiBase: history.apiBase, botToken: 'bucketed' });
      const began = Date.now();
      const all = await reader.readAll(LONG, { maxMessages: 10_000 });
      expect(all).toHaveLength(450);
      // Five pages, two a second: the third and fifth wait for a reset.
      expect(Date.now() - began).toBeGreaterThanOrEqual(2_000);
      expect(history.rateLimitCounts().route).toBe(0);
    } finally {
      history.setBucket(50, 1_000);
    }
  }, 20_000);
});
