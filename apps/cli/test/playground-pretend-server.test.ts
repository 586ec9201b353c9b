/**
 * Issue 13's "done when", driven like a person drives the playground (its HTTP endpoints) against
 * `brain start`'s composition: the pretend server's thread, forum and pins come from the same
 * fake Discord REST the product reads with a bot token. A newcomer saves the thread, asks about
 * something said in its middle, and the citation is that message's own jump link, which the
 * page has (so it can open it); `/sync` of the #help forum brings in its tagged posts.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withService, type Database } from '@brain/db';
import { PLAYGROUND, PRETEND_FORUM_ID, PRETEND_THREAD, type PlaygroundMessage, type PretendChannel } from '@brain/discord';
import { waitUntil } from '@brain/testkit';
import type { WebServer } from '@brain/web';
import { startEmbeddedPlayground, type EmbeddedPlayground } from './embedded-playground.ts';

let playground: EmbeddedPlayground;
let web: WebServer;
let db: Database;

beforeAll(async () => {
  playground = await startEmbeddedPlayground('brain-pretend-');
  ({ web, db } = playground);
}, 120_000);

afterAll(async () => {
  await playground?.close();
});

let cookie = '';
async function viewer(): Promise<string> {
  if (!cookie) cookie = ((await fetch(`${web.url}/playground`)).headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return cookie;
}

async function post<T>(path: string, body: unknown, status = 200): Promise<T> {
  const res = await fetch(`${web.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: web.url, cookie: await viewer() }, body: JSON.stringify(body) });
  expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(status);
  return (await res.json()) as T;
}

interface State {
  messages: PlaygroundMessage[];
  channels: PretendChannel[];
  server: { id: string };
}
async function state(): Promise<State> {
  return (await (await fetch(`${web.url}/playground/state`, { headers: { cookie: await viewer() } })).json()) as State;
}

/** Does something in the playground and returns the bot's reply once it is done (not just "Reading…"). */
async function botReply(act: () => Promise<unknown>, done: (m: PlaygroundMessage) => boolean = () => true): Promise<PlaygroundMessage> {
  const before = new Set((await state()).messages.map((m) => m.id));
  await act();
  return waitUntil(
    async () => {
      const reply = (await state()).messages.find((m) => !before.has(m.id) && m.author === 'bot');
      return reply?.state === 'done' && done(reply) ? reply : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 50, what: "the bot's reply" },
  );
}

const text = (m: PlaygroundMessage) => JSON.stringify([m.content, m.embeds]);
const send = (channelId: string, persona: 'member' | 'moderator', line: string) =>
  botReply(async () => {
    await post('/playground/view', { channelId, persona });
    await post('/playground/send', { text: line });
  });

it('serves a pretend server with channels, a thread of a few dozen messages, a tagged forum and pins', async () => {
  const { channels, messages } = await state();
  const thread = channels.find((c) => c.id === PRETEND_THREAD.id);
  expect(thread).toMatchObject({ type: 11, parentId: PLAYGROUND.channelId });
  expect(messages.filter((m) => m.channelId === PRETEND_THREAD.id).length).toBeGreaterThanOrEqual(30);
  const forum = channels.find((c) => c.id === PRETEND_FORUM_ID);
  expect(forum?.type).toBe(15);
  const posts = channels.filter((c) => c.parentId === PRETEND_FORUM_ID);
  expect(posts.length).toBeGreaterThanOrEqual(3);
  const solved = forum?.tags?.find((t) => t.name === 'solved')?.id;
  expect(posts.filter((p) => p.appliedTags?.includes(solved ?? '-'))).toHaveLength(1);
  expect(messages.filter((m) => m.pinned && m.channelId === PLAYGROUND.channelId).length).toBeGreaterThanOrEqual(1);
  expect(messages.find((m) => m.startsThread === PRETEND_THREAD.id)?.channelId).toBe(PLAYGROUND.channelId);
});

it('a newcomer saves the thread, asks about its middle, and the citation opens that message', async () => {
  const { messages } = await state();
  const inThread = messages.filter((m) => m.channelId === PRETEND_THREAD.id);
  const someMessage = inThread.at(-3) as PlaygroundMessage;
  await post('/playground/view', { channelId: PRETEND_THREAD.id, persona: 'member' });
  const saved = await botReply(() => post('/playground/save-thread', { messageId: someMessage.id }), (m) => m.content.includes('Saved') || text(m).includes('Saved'));
  expect(text(saved)).toContain('Moving staging to the new cluster');
  expect(text(saved)).toContain(`${inThread.length} messages`);

  const answer = await send(PLAYGROUND.channelId, 'member', '/ask question: Which port does the new staging load balancer listen on?');
  expect(text(answer)).toContain('8443');
  const link = `https://discord.com/channels/${PLAYGROUND.guildId}/${PRETEND_THREAD.id}/${PRETEND_THREAD.factMessageId}`;
  expect(text(answer)).toContain(link);
  // The page can open it: the linked message is one it shows, in the linked channel.
  const linked = (await state()).messages.find((m) => m.id === PRETEND_THREAD.factMessageId);
  expect(linked).toMatchObject({ channelId: PRETEND_THREAD.id, author: 'member' });
  expect(linked?.content).toContain('8443');

  // What you post in the thread joins its history: saving it again reads one message more.
  await post('/playground/view', { channelId: PRETEND_THREAD.id, persona: 'member' });
  await post('/playground/send', { text: 'The old cluster was deleted on Friday.' });
  const again = await botReply(() => post('/playground/save-thread', { messageId: someMessage.id }), (m) => text(m).includes('Saved'));
  expect(text(again)).toContain(`${inThread.length + 1} messages`);
}, 180_000);

it('/sync add of the #help forum backfills its tagged posts from the pretend server, and /sync list shows it current', async () => {
  const refused = await send(PLAYGROUND.channelId, 'member', '/sync add channel: #help');
  expect(text(refused)).toContain('Only server admins');
  const added = await send(PLAYGROUND.channelId, 'moderator', '/sync add channel: #help');
  expect(text(added)).toContain(`<#${PRETEND_FORUM_ID}>`);
  await waitUntil(
    async () => {
      const [row] = await withService(db, (tx) => tx.query<{ state: string }>('select state from synced_channels where channel_id = $1', [PRETEND_FORUM_ID]));
      expect(row?.state).not.toBe('paused');
      return row?.state === 'current';
    },
    { timeoutMs: 60_000, intervalMs: 100, what: 'the synced #help to be current' },
  );
  const rows = await withService(db, (tx) =>
    tx.query<{ title: string; status: string }>("select title, status from artifacts where kind = 'discord_thread' and origin_parent_id = $1 order by title", [PRETEND_FORUM_ID]),
  );
  expect(rows.map((r) => r.title)).toEqual(expect.arrayContaining(['Login emails never arrive', 'How do I rotate my API key?', 'Uploads over 2 GB fail']));
  const list = await send(PLAYGROUND.channelId, 'moderator', '/sync list');
  expect(text(list)).toMatch(/current \(\d+ messages in 3 sources/);
}, 180_000);
