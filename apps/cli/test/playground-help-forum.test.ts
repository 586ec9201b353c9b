/**
 * Issue 20 in the playground, driven over its HTTP endpoints against `brain start`'s embedded
 * composition: a newcomer posts in the pretend server's #help forum, the real Gateway runner
 * (connected to testkit's fake Gateway on loopback, no token) answers it in its thread with
 * citations and the buttons, and "Still need help?" pings the Moderator role there.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withService, type Database } from '@brain/db';
import { PLAYGROUND, PRETEND_FORUM_ID, type PlaygroundMessage, type PretendChannel } from '@brain/discord';
import { saveSource } from '@brain/ingest';
import { waitUntil } from '@brain/testkit';
import type { WebServer } from '@brain/web';
import { resolveWorkspace } from '../src/workspace.ts';
import { startEmbeddedPlayground, type EmbeddedPlayground } from './embedded-playground.ts';

let playground: EmbeddedPlayground;
let web: WebServer;
let db: Database;
let cookie = '';

beforeAll(async () => {
  playground = await startEmbeddedPlayground('brain-help-forum-');
  ({ web, db } = playground);
  const local = await resolveWorkspace(db, undefined);
  await saveSource(db, {
    workspaceId: local.id,
    input: { kind: 'text', title: 'Rate limits', text: '# Rate limits\n\nThe API rate limit is 120 requests per minute per token. Raise it with the `rate_limit_per_minute` setting.' },
    savedBy: 'test',
  });
  await waitUntil(
    async () => {
      const [row] = await withService(db, (tx) => tx.query<{ n: number }>("select count(*)::int as n from jobs where status in ('queued', 'running')"));
      return row?.n === 0;
    },
    { timeoutMs: 30_000, what: 'the source to be indexed' },
  );
  cookie = ((await fetch(`${web.url}/playground`)).headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}, 120_000);

afterAll(async () => {
  await playground?.close();
});

async function post<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${web.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: web.url, cookie }, body: JSON.stringify(body) });
  expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(200);
  return (await res.json()) as T;
}

interface State {
  messages: PlaygroundMessage[];
  channels: PretendChannel[];
  view: { channelId: string };
}
const state = async (): Promise<State> => (await (await fetch(`${web.url}/playground/state`, { headers: { cookie } })).json()) as State;
const customIds = (m: PlaygroundMessage) => (m.components as { components: { custom_id: string }[] }[]).flatMap((row) => row.components.map((c) => c.custom_id));

it('a newcomer’s post in #help is answered in its thread with citations and the buttons; “Still need help?” pings the moderators there', async () => {
  await post('/playground/view', { channelId: PRETEND_FORUM_ID, persona: 'member' });
  const made = await post<{ posted: string; threadId: string }>('/playground/send', { text: 'API rate limit per minute?\nWhat is the API rate limit per minute per token?' });
  const now = await state();
  // The post is a thread of the forum, the newcomer is in it, and its starter has the thread's id.
  expect(now.channels.find((c) => c.id === made.threadId)).toMatchObject({ type: 11, parentId: PRETEND_FORUM_ID, name: 'API rate limit per minute?' });
  expect(now.view.channelId).toBe(made.threadId);
  expect(made.posted).toBe(made.threadId);

  const answer = await waitUntil(async () => (await state()).messages.find((m) => m.channelId === made.threadId && m.author === 'bot'), { timeoutMs: 30_000, what: 'the auto-answer in the thread' });
  const text = JSON.stringify(answer.embeds);
  expect(text).toContain('120 requests per minute');
  expect(text).toMatch(/\[1\]/);
  expect(text).toContain('Rate limits');
  const ids = customIds(answer);
  expect(ids).toEqual([expect.stringMatching(/^av:up:/), expect.stringMatching(/^av:down:/), expect.stringMatching(/^cs:/), expect.stringMatching(/^ah:/)]);

  await post('/playground/press', { messageId: answer.id, customId: ids[3] });
  const pinged = (m: PlaygroundMessage) => m.channelId === made.threadId && m.author === 'bot' && m.content.includes(`<@&${PLAYGROUND.moderatorRoleId}>`);
  // The ping, for everyone in the thread; and, for the presser alone, what happened.
  const [ping, told] = await waitUntil(
    async () => {
      const messages = (await state()).messages.filter(pinged);
      const shared = messages.find((m) => !m.ephemeral);
      const own = messages.find((m) => m.ephemeral && m.state === 'done');
      return shared && own ? ([shared, own] as const) : undefined;
    },
    { timeoutMs: 20_000, what: 'the moderators pinged in the thread' },
  );
  expect(ping.content).toContain('still needs help here');
  expect(told.content).toContain('stay quiet here');
}, 60_000);

it('a follow-up to @brain in the thread is answered in context, and “Mark solved” adds the post to the brain as solved', async () => {
  await post('/playground/view', { channelId: PRETEND_FORUM_ID, persona: 'member' });
  const made = await post<{ posted: string; threadId: string }>('/playground/send', { text: 'Rate limit per token\nWhat is the API rate limit per minute per token?' });
  const fromBot = async () => (await state()).messages.filter((m) => m.channelId === made.threadId && m.author === 'bot' && !m.ephemeral);
  await waitUntil(async () => (await fromBot()).length > 0, { timeoutMs: 30_000, what: 'the auto-answer in the thread' });

  // Typed as in Discord: "@brain" mentions the bot; "it" is the rate limit the thread is about.
  await post('/playground/send', { text: '@brain and how do I raise it?' });
  const followUp = await waitUntil(async () => (await fromBot())[1], { timeoutMs: 30_000, what: 'the follow-up answer' });
  const text = JSON.stringify(followUp.embeds);
  expect(text).toContain('rate_limit_per_minute');
  expect(text).toContain('and how do I raise it (rate limit per token api minute)?');

  await post('/playground/mark-solved', { messageId: made.posted });
  const told = await waitUntil(async () => (await state()).messages.find((m) => m.ephemeral && m.author === 'bot' && m.content.includes('Marked solved')), { timeoutMs: 20_000, what: 'Mark solved to answer' });
  expect(told.content).toContain('is now saved to the brain');
  const [source] = await withService(db, (tx) =>
    tx.query<{ solved: string | null }>("select metadata->>'solved' as solved from artifacts where source_key = $1", [`discord-thread:${PLAYGROUND.guildId}/${made.threadId}`]),
  );
  expect(source?.solved).toBe('true');
}, 60_000);
