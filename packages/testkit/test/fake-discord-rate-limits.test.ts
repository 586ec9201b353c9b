import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeMessage, snowflakeAt, startFakeDiscordHistory, type FakeDiscordHistory } from '../src/index.ts';

const start = Date.parse('2026-11-30T09:00:00Z');
const CHANNELS = Array.from({ length: 60 }, (_, i) => snowflakeAt(start + i * 1000));
let history: FakeDiscordHistory;

beforeAll(async () => {
  history = await startFakeDiscordHistory();
  for (const id of CHANNELS) history.addMessages(id, [fakeMessage({ id, channelId: id, author: 'Ada', content: 'hello' })]);
});
afterAll(() => history.close());

const get = async (path: string, token = 'Bot one') => {
  const res = await fetch(`${history.apiBase}/v10${path}`, { headers: { authorization: token } });
  return { status: res.status, headers: res.headers, body: await res.json() };
};

describe('fake Discord rate limits', () => {
  it('a bot’s 51st request within a second, on any channel, is a global 429 in Discord’s shape', async () => {
    const answers = await Promise.all(CHANNELS.map((id) => get(`/channels/${id}/messages?limit=1`)));
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    expect(ok).toHaveLength(50);
    expect(limited).toHaveLength(10);
    const [first] = limited;
    expect(first?.body).toMatchObject({ message: 'You are being rate limited.', global: true, retry_after: expect.any(Number) });
    expect((first?.body as { retry_after: number }).retry_after).toBeLessThanOrEqual(1);
    expect(first?.headers.get('x-ratelimit-global')).toBe('true');
    expect(first?.headers.get('x-ratelimit-scope')).toBe('global');
    expect(first?.headers.get('retry-after')).toBe('1');
    // The global limit has no bucket: its answer announces none.
    expect(first?.headers.get('x-ratelimit-bucket')).toBeNull();
    expect(history.rateLimitCounts()).toMatchObject({ global: 10 });
    // Another bot token has its own 50.
    expect((await get(`/channels/${CHANNELS[0]}/messages?limit=1`, 'Bot two')).status).toBe(200);
  });

  it('announces each route bucket per channel in the X-RateLimit headers, and refuses past it with scope user', async () => {
    // Channels and a bot token the test above did not touch: their buckets and global window start empty.
    const [a, b] = [snowflakeAt(start + 100_000), snowflakeAt(start + 101_000)];
    for (const id of [a, b]) history.addMessages(id, [fakeMessage({ id, channelId: id, author: 'Ada', content: 'hello' })]);
    const fresh = (path: string) => get(path, 'Bot buckets');
    history.setBucket(2, 5_000, 'messages');
    try {
      const first = await fresh(`/channels/${a}/messages?limit=1`);
      expect(first.status).toBe(200);
      expect(first.headers.get('x-ratelimit-limit')).toBe('2');
      expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
      expect(first.headers.get('x-ratelimit-bucket')).toBe('fake-messages');
      expect(Number(first.headers.get('x-ratelimit-reset-after'))).toBeGreaterThan(4);
      expect(Number(first.headers.get('x-ratelimit-reset')) * 1000).toBeGreaterThan(Date.now() + 4_000);
      await fresh(`/channels/${a}/messages?limit=1`);
      const over = await fresh(`/channels/${a}/messages?limit=1`);
      expect(over.status).toBe(429);
      expect(over.body).toMatchObject({ global: false });
      expect(over.headers.get('x-ratelimit-scope')).toBe('user');
      expect(over.headers.get('x-ratelimit-global')).toBeNull();
      // Another channel is another budget; another route keeps the default bucket.
      expect((await fresh(`/channels/${b}/messages?limit=1`)).status).toBe(200);
      expect((await fresh(`/channels/${a}`)).headers.get('x-ratelimit-limit')).toBe('50');
    } finally {
      history.setBucket(50, 1000);
    }
  });
});
