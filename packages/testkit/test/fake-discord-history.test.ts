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

describe('fake Discord threads and forums', () => {
  const GUILD = '710000000000000001';
  const FORUM = '710000000000000002';
  const HIDDEN = '710000000000000003';
  const posts: string[] = [];

  beforeAll(() => {
    history.createChannel(FORUM, { guildId: GUILD, name: 'help', type: 15, tags: [{ id: '9', name: 'Solved', moderated: false, emoji_id: null, emoji_name: '✅' }] });
    history.createChannel(HIDDEN, { guildId: GUILD, name: 'staff' });
    history.setForbidden(HIDDEN, true);
    for (let i = 0; i < 5; i++) {
      const id = snowflakeAt(Date.parse('2026-11-01T00:00:00Z') + i * 60_000);
      posts.push(id);
      history.createThread(id, { parentId: FORUM, name: `post ${i}`, tags: i === 0 ? ['9'] : [] });
      if (i < 4) history.archiveThread(id, new Date(Date.parse('2026-11-20T00:00:00Z') + i * 1000).toISOString());
    }
  });

  it('lists guild channels without those the bot cannot view, and a forum with its tags', async () => {
    const channels = (await get(`/guilds/${GUILD}/channels`)).body as { id: string; type: number; available_tags?: unknown[] }[];
    expect(channels.map((c) => c.id)).toEqual([FORUM]);
    expect(channels[0]?.available_tags).toEqual([{ id: '9', name: 'Solved', moderated: false, emoji_id: null, emoji_name: '✅' }]);
    expect((await get(`/channels/${HIDDEN}`)).body).toEqual({ message: 'Missing Access', code: 50001 });
  });

  it('serves active threads per guild and archived ones by archive time with before, limit 2–100 and has_more', async () => {
    const active = (await get(`/guilds/${GUILD}/threads/active`)).body as { threads: { id: string; applied_tags: string[] }[] };
    expect(active.threads.map((t) => t.id)).toEqual([posts[4]]);
    const first = (await get(`/channels/${FORUM}/threads/archived/public?limit=2`)).body as { threads: { id: string; thread_metadata: { archive_timestamp: string } }[]; has_more: boolean };
    expect(first.threads.map((t) => t.id)).toEqual([posts[3], posts[2]]);
    expect(first.has_more).toBe(true);
    const before = first.threads[1]?.thread_metadata.archive_timestamp ?? '';
    const second = (await get(`/channels/${FORUM}/threads/archived/public?limit=2&before=${encodeURIComponent(before)}`)).body as { threads: { id: string; applied_tags: string[] }[]; has_more: boolean };
    expect(second.threads.map((t) => t.id)).toEqual([posts[1], posts[0]]);
    expect(second.has_more).toBe(false);
    expect(second.threads[1]?.applied_tags).toEqual(['9']);
    expect((await get(`/channels/${FORUM}/threads/archived/public?limit=101`)).status).toBe(400);
  });

  it('answers 404 Unknown Channel for a deleted thread', async () => {
    const doomed = snowflakeAt(Date.parse('2026-11-02T00:00:00Z'));
    history.createThread(doomed, { parentId: FORUM, name: 'doomed' });
    history.deleteThread(doomed);
    expect((await get(`/channels/${doomed}/messages`)).body).toMatchObject({ code: 10003 });
  });
});
