/**
 * Issue 14's "done when", over HTTP against `brain start`'s composition (embedded, playground on,
 * the real worker, /ask answered by @brain/answer): in the pretend server, a note saved in the
 * staff-only channel is found from that channel and from a moderator's private ask, and never
 * from the public channel, by a member or by a moderator's normal /ask there.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ask, createExtractiveAnswerer } from '@brain/answer';
import { loadConfig } from '@brain/config';
import { migrate, openDatabase, withService, withWorkspace, type Database } from '@brain/db';
import { guildChannels, PLAYGROUND, type PlaygroundMessage } from '@brain/discord';
import { createLogger } from '@brain/observability';
import { reserveLoopbackPort, waitUntil } from '@brain/testkit';
import { startWebServer, type WebServer } from '@brain/web';
import { wireDiscord, type DiscordWiring } from '../src/discord-wiring.ts';
import { compose, type Composition } from '../src/compose.ts';
import { runWorker, type RunningWorker } from '../src/services/run-worker.ts';
import { resolveWorkspace } from '../src/workspace.ts';
import { templateDataDir } from './brain-process.ts';

const SECRET = 'Layoffs are planned for March 3; keep this quiet until the all-hands meeting.';
const PUBLIC_NOTE = 'The all-hands meeting is on Friday at 4pm in the main hall.';

let web: WebServer;
let db: Database;
let worker: RunningWorker;
let app: Composition;
let discord: DiscordWiring;
let dataDir = '';
let localWorkspaceId = '';

beforeAll(async () => {
  const reserved = await reserveLoopbackPort();
  const port = reserved.port;
  dataDir = await templateDataDir('brain-audiences-');
  const config = loadConfig({ BRAIN_DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` }, { cwd: process.cwd() });
  expect(config.playground.enabled).toBe(true);
  const logger = createLogger({ level: 'warn' });
  db = await openDatabase(config.database, { command: 'e2e' });
  await migrate(db);
  app = compose(config, db, logger);
  const local = await resolveWorkspace(db, undefined);
  localWorkspaceId = local.id;
  const embedder = app.embedder;
  const answerer = createExtractiveAnswerer();
  discord = await wireDiscord({ config, db, logger, localWorkspaceId: local.id, ask: (input) => ask({ db, embedder, answerer, logger }, input) });
  worker = await runWorker(app, undefined, discord.pretendHistory);
  await reserved.release();
  web = await startWebServer({ config, db, logger, discord: discord.surface, playground: discord.playground }, { host: '127.0.0.1', port });
}, 120_000);

afterAll(async () => {
  await web?.close();
  await worker?.stop();
  await discord?.close();
  await app?.close();
  await db?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The playground's viewer cookie, set when the page is served: ephemeral replies go to it alone. */
let cookie = '';
async function viewer(): Promise<string> {
  if (!cookie) cookie = ((await fetch(`${web.url}/playground`)).headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return cookie;
}

async function post<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${web.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: web.url, cookie: await viewer() }, body: JSON.stringify(body) });
  expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(200);
  return (await res.json()) as T;
}

async function messages(): Promise<PlaygroundMessage[]> {
  return ((await (await fetch(`${web.url}/playground/state`, { headers: { cookie: await viewer() } })).json()) as { messages: PlaygroundMessage[] }).messages;
}

/** Sends a command as `persona` in `channelId` and returns the bot's reply once it is done. */
async function run(channelId: string, persona: 'member' | 'moderator', text: string): Promise<PlaygroundMessage> {
  await post('/playground/view', { channelId, persona });
  const before = new Set((await messages()).map((m) => m.id));
  await post('/playground/send', { text });
  return waitUntil(
    async () => {
      const reply = (await messages()).find((m) => !before.has(m.id) && m.author === 'bot');
      return reply?.state === 'done' ? reply : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 50, what: `the bot's reply to ${text}` },
  );
}

async function waitReady(count: number) {
  await waitUntil(
    async () => {
      const rows = await withService(db, (tx) => tx.query<{ n: number }>("select count(*)::int as n from artifacts where status = 'ready'"));
      return (rows[0]?.n ?? 0) >= count;
    },
    { timeoutMs: 20_000, intervalMs: 50, what: `${count} sources to be ready` },
  );
}

const text = (m: PlaygroundMessage) => JSON.stringify([m.content, m.embeds]);
const QUESTION = '/ask question: When are the layoffs planned?';

// First: before any ask, which would also store them.
it('stores the pretend server’s guild facts when it starts, as a sync does, so the dashboard’s audience picker offers its channels', async () => {
  const offered = await withWorkspace(db, localWorkspaceId, (tx) => guildChannels(tx));
  expect(offered).toEqual(expect.arrayContaining([{ id: PLAYGROUND.channelId, name: PLAYGROUND.channelName }, { id: PLAYGROUND.staffChannelId, name: PLAYGROUND.staffChannelName }]));
  const [row] = await withService(db, (tx) => tx.query<{ guild_id: string }>('select guild_id from guild_facts where workspace_id = $1', [localWorkspaceId]));
  expect(row?.guild_id).toBe(PLAYGROUND.guildId);
});

it('has a public channel, a staff-only channel and a member/moderator switch', async () => {
  const state = (await (await fetch(`${web.url}/playground/state`)).json()) as { channels: { id: string }[]; personas: { id: string }[] };
  expect(state.channels.map((c) => c.id).slice(0, 2)).toEqual([PLAYGROUND.channelId, PLAYGROUND.staffChannelId]);
  expect(state.personas.map((p) => p.id).sort()).toEqual(['member', 'moderator']);
  const page = await (await fetch(`${web.url}/playground`)).text();
  expect(page).toContain('staff');
  expect(page).toContain('id="persona"');
});

it('hides #staff from the member persona’s sidebar, and will not show it to them', async () => {
  const sidebar = async () => ((await (await fetch(`${web.url}/playground/state`, { headers: { cookie: await viewer() } })).json()) as { channels: { id: string }[] }).channels.map((c) => c.id);
  await post('/playground/view', { channelId: PLAYGROUND.staffChannelId, persona: 'moderator' });
  expect(await sidebar()).toContain(PLAYGROUND.staffChannelId);
  // Becoming the member while in #staff leaves it, and the view's answer carries the new sidebar.
  const asMember = await post<{ channelId: string; channels: { id: string }[] }>('/playground/view', { persona: 'member' });
  expect(asMember.channelId).toBe(PLAYGROUND.channelId);
  expect(asMember.channels.map((c) => c.id)).not.toContain(PLAYGROUND.staffChannelId);
  expect(await sidebar()).not.toContain(PLAYGROUND.staffChannelId);
  expect(await sidebar()).toContain(PLAYGROUND.channelId);
  const refused = await fetch(`${web.url}/playground/view`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: web.url, cookie: await viewer() },
    body: JSON.stringify({ channelId: PLAYGROUND.staffChannelId }),
  });
  expect(refused.status).toBe(403);
  await post('/playground/view', { persona: 'moderator' });
  expect(await sidebar()).toContain(PLAYGROUND.staffChannelId);
});

it('a note saved in #staff is found in #staff and by a moderator’s private ask, never in #general', async () => {
  await run(PLAYGROUND.staffChannelId, 'moderator', `/save text: ${SECRET} title: Staff note`);
  await run(PLAYGROUND.channelId, 'member', `/save text: ${PUBLIC_NOTE} title: All-hands`);
  await waitReady(2);
  const [row] = await withService(db, (tx) => tx.query<{ audience: string }>("select audience from artifacts where title = 'Staff note'"));
  expect(row?.audience).toBe(`channel:${PLAYGROUND.staffChannelId}`);

  expect(text(await run(PLAYGROUND.staffChannelId, 'moderator', QUESTION))).toContain('March 3');
  const privately = await run(PLAYGROUND.channelId, 'moderator', `${QUESTION} private: true`);
  expect(privately.ephemeral).toBe(true);
  expect(text(privately)).toContain('March 3');

  for (const persona of ['member', 'moderator'] as const) {
    const reply = text(await run(PLAYGROUND.channelId, persona, QUESTION));
    expect(reply, `a ${persona} asking in #general`).not.toContain('March 3');
    expect(reply).not.toContain('Staff note');
    // Issue 14 rule 2: the moderator, who can read #staff, is told a private answer exists; the member is not.
    if (persona === 'moderator') expect(reply).toContain('A private answer may be available to you');
    else expect(reply).not.toContain('private answer');
  }
  const memberPrivately = text(await run(PLAYGROUND.channelId, 'member', `${QUESTION} private: true`));
  expect(memberPrivately).not.toContain('March 3');
  // The member's /sources does not list it either; the moderator's does.
  expect(text(await run(PLAYGROUND.channelId, 'member', '/sources'))).not.toContain('Staff note');
  expect(text(await run(PLAYGROUND.channelId, 'moderator', '/sources'))).toContain('Staff note');
}, 120_000);

it('sends the member’s page no #staff message, and will not let them act on one; the moderator’s page has them', async () => {
  const state = async () => (await (await fetch(`${web.url}/playground/state`, { headers: { cookie: await viewer() } })).json()) as { messages: PlaygroundMessage[] };
  await post('/playground/view', { channelId: PLAYGROUND.staffChannelId, persona: 'moderator' });
  const asModerator = await state();
  const staff = asModerator.messages.filter((m) => m.channelId === PLAYGROUND.staffChannelId);
  // The pretend server's own #staff history and what the earlier cases said there.
  expect(JSON.stringify(staff)).toContain('On-call rota for December');
  expect(JSON.stringify(staff)).toContain('March 3');

  await post('/playground/view', { persona: 'member' });
  const asMember = JSON.stringify((await state()).messages);
  expect(asMember).not.toContain('On-call rota for December');
  expect(asMember).not.toContain('March 3');
  expect(asMember).not.toContain(PLAYGROUND.staffChannelId);
  expect(asMember).toContain(PUBLIC_NOTE.slice(0, 30));
  // Nor can the member save, or press a button on, a #staff message they were never sent.
  const target = staff.find((m) => m.author === 'member') as PlaygroundMessage;
  const bot = staff.find((m) => m.author === 'bot') as PlaygroundMessage;
  for (const [path, body] of [['/playground/save-message', { messageId: target.id }], ['/playground/press', { messageId: bot.id, customId: 'sources' }]] as const) {
    const res = await fetch(`${web.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: web.url, cookie: await viewer() }, body: JSON.stringify(body) });
    expect(res.status, path).toBe(404);
  }
  await post('/playground/view', { persona: 'moderator' });
  expect(JSON.stringify((await state()).messages)).toContain('On-call rota for December');
});
