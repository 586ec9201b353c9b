import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeMessage, snowflakeAt, startFakeDiscordHistory, type FakeDiscordHistory, type FakeMessage } from '../src/index.ts';

const THREAD = snowflakeAt(Date.parse('2026-11-30T09:00:00Z'));
let history: FakeDiscordHistory;
let ids: string[] = [];

beforeAll(async () => {
  history = await startFakeDiscordHistory();
  const start = Date.parse('2026-11-30T09:00:00Z');
  ids = Array.from({ length: 240 }, (_, i) => snowflakeAt(start + i * 60_000, i === 0 ? 0 : 1));
  // A forum post: the starter message has the thread's id.
  ids[0] = THREAD;
  history.addMessages(THREAD, ids.map((id, i) => fakeMessage({ id, channelId: THREAD, author: i % 2 ? 'Ada' : 'Grace', content: `message ${i + 1}` })));
  history.channel('700000000000000001').forbidden = true;
});
afterAll(() => history.close());

const get = async (path: string) => {
  const res = await fetch(`${history.apiBase}/v10${path}`);
  return { status: res.status, headers: res.headers, body: (await res.json()) };
};
const page = async (query: string) => (await get(`/channels/${THREAD}/messages?${query}`)).body as FakeMessage[];

describe('fake Discord history', () => {
  it('pages like Discord: limit 1–100 (default 50), newest first even with after, before/around', async () => {
    expect((await page('')).map((m) => m.content)).toEqual(Array.from({ length: 50 }, (_, i) => `message ${240 - i}`));
    const forward = await page(`after=0&limit=100`);
    expect(forward).toHaveLength(100);
    expect(forward[0]?.content).toBe('message 100');
    expect(forward.at(-1)?.content).toBe('message 1');
    const next = await page(`after=${forward[0]?.id}&limit=100`);
    expect([next.at(-1)?.content, next[0]?.content]).toEqual(['message 101', 'message 200']);
    const back = await page(`before=${ids[10]}&limit=5`);
    expect(back.map((m) => m.content)).toEqual(['message 10', 'message 9', 'message 8', 'message 7', 'message 6']);
    expect((await page(`around=${ids[120]}&limit=4`)).map((m) => m.content)).toEqual(['message 122', 'message 121', 'message 120', 'message 119']);
    expect((await get(`/channels/${THREAD}/messages?limit=101`)).body).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
    expect((await get(`/channels/${THREAD}/messages?limit=0`)).status).toBe(400);
    expect((await get(`/channels/${THREAD}/messages?after=1&before=2`)).status).toBe(400);
  });

  it('answers 403 Missing Access, 404 Unknown Channel and Unknown Message in Discord’s shapes', async () => {
    expect(await get('/channels/700000000000000001/messages')).toMatchObject({ status: 403, body: { code: 50001, message: 'Missing Access' } });
    expect(await get('/channels/700000000000000002/messages')).toMatchObject({ status: 404, body: { code: 10003 } });
    expect(await get(`/channels/${THREAD}/messages/1`)).toMatchObject({ status: 404, body: { code: 10008 } });
    expect((await get(`/channels/${THREAD}/messages/${THREAD}`)).body).toMatchObject({ id: THREAD, content: 'message 1' });
  });

  it('empties content, embeds and attachments when the MESSAGE_CONTENT intent is off', async () => {
    history.setMessageContentIntent(false);
    try {
      const [m] = await page('limit=1');
      expect(m).toMatchObject({ content: '', attachments: [], embeds: [], components: [], author: { global_name: 'Ada' } });
    } finally {
      history.setMessageContentIntent(true);
    }
  });

  it('rate-limits with 429, retry_after and the X-RateLimit headers, per channel bucket', async () => {
    history.rateLimitNext(1, 0.25);
    const limited = await get(`/channels/${THREAD}/messages?limit=1`);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: 'You are being rate limited.', retry_after: 0.25, global: false });
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('x-ratelimit-scope')).toBe('user');
    history.setBucket(2, 60_000);
    try {
      const ok = await get(`/channels/${THREAD}/pins`);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-ratelimit-remaining')).toBe('1');
      await get(`/channels/${THREAD}/pins`);
      const over = await get(`/channels/${THREAD}/pins`);
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('x-ratelimit-reset-after'))).toBeGreaterThan(50);
    } finally {
      history.setBucket(50, 1000);
    }
  });

  it('serves pins paginated by pinned_at and the legacy first-50 list', async () => {
    history.pin(THREAD, ids[3] as string, '2026-11-30T12:00:00.000Z');
    history.pin(THREAD, ids[7] as string, '2026-11-30T13:00:00.000Z');
    const first = (await get(`/channels/${THREAD}/messages/pins?limit=1`)).body as { items: { pinned_at: string; message: FakeMessage }[]; has_more: boolean };
    expect(first.items.map((i) => i.message.content)).toEqual(['message 8']);
    expect(first.has_more).toBe(true);
    const rest = (await get(`/channels/${THREAD}/messages/pins?before=${first.items[0]?.pinned_at}`)).body as typeof first;
    expect(rest).toMatchObject({ items: [{ message: { content: 'message 4' } }], has_more: false });
    expect(((await get(`/channels/${THREAD}/pins`)).body as FakeMessage[]).map((m) => m.content)).toEqual(['message 8', 'message 4']);
  });

  it('reflects edits and deletions on the next read', async () => {
    history.editMessage(THREAD, ids[239] as string, 'edited last');
    expect((await page('limit=1'))[0]).toMatchObject({ content: 'edited last', edited_timestamp: expect.any(String) });
    history.deleteMessage(THREAD, ids[239] as string);
    expect((await page('limit=1'))[0]?.content).toBe('message 239');
  });
});
