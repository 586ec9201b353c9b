import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApplicationCommandType, ChannelType, InteractionType, PermissionFlagsBits } from 'discord-api-types/v10';
import { loadConfig } from '@brain/config';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { generateDevKeyPair } from '@brain/discord';
import { createLocalEmbedder } from '@brain/embeddings';
import { createLogger } from '@brain/observability';
import {
  discordInteraction,
  fakeMessage,
  forumPostFixture,
  snowflakeAt,
  THREAD_FACTS,
  startFakeDiscord,
  startFakeDiscordHistory,
  startFakeHttpServer,
  waitUntil,
  type DiscordWebhookCall,
  type FakeDiscord,
  type FakeDiscordHistory,
  type FakeHttpServer,
  type FakeMessage,
} from '@brain/testkit';
import { buildApp, type WebApp } from '@brain/web';
import { startWorker, type WorkerHandle } from '@brain/worker';
import { wireDiscord, type DiscordWiring } from '../src/discord-wiring.ts';
import { buildAnswering } from '../src/services/answering.ts';
import { buildIngestRuntime, type IngestRuntime } from '../src/services/ingest.ts';
import { countingEmbedder } from './counting-embedder.ts';

// "Save thread to brain" end to end, in one process: a signed message-command interaction into
// the web app, the thread's history read from a fake Discord through discord.js REST with the bot
// token, the real worker indexing it, and /ask through the real ask path with the extractive
// answerer, its reply edited on the fake Discord.
const APP_ID = '920000000000000001';
const GUILD = '920000000000000002';
const FORUM = '920000000000000003';
const BOT_TOKEN = 'bot-token-for-tests';
const logger = createLogger({ level: 'silent' });
const keys = generateDevKeyPair();
const start = Date.parse('2026-11-30T09:00:00Z');

const forumPost = (day: number) => forumPostFixture({ guildId: GUILD, startMs: start + day * 86_400_000 });

const jump = (thread: string, m: FakeMessage) => `https://discord.com/channels/${GUILD}/${thread}/${m.id}`;

describeDb('"Save thread to brain" end to end', (suite) => {
  let server: FakeHttpServer;
  let discord: FakeDiscord;
  let history: FakeDiscordHistory;
  let runtime: IngestRuntime;
  let worker: WorkerHandle;
  let wiring: DiscordWiring;
  let app: WebApp;
  let embeds: ReturnType<typeof countingEmbedder>;
  const post = forumPost(1);

  beforeAll(async () => {
    server = await startFakeHttpServer('Discord');
    discord = await startFakeDiscord({ server });
    history = await startFakeDiscordHistory({ server });
    history.addMessages(post.id, post.messages);

    const [ws] = await withService(suite.db, (tx) =>
      tx.query<{ id: string }>("insert into workspaces (slug, guild_id, claim_email, claimed_at) values ('threads', $1, 'owner@example.com', now()) returning id", [GUILD]),
    );
    const config = loadConfig(
      { DISCORD_PUBLIC_KEY: keys.publicKeyHex, DISCORD_APPLICATION_ID: APP_ID, DISCORD_BOT_TOKEN: BOT_TOKEN, DISCORD_API_BASE: discord.apiBase, BRAIN_PLAYGROUND: 'off' },
      { cwd: process.cwd() },
    );
    const local = createLocalEmbedder();
    embeds = countingEmbedder(local);
    runtime = buildIngestRuntime(config, suite.db, logger, embeds.embedder);
    worker = await startWorker(runtime.services, { logger, pollMs: 50 });
    wiring = await wireDiscord({ config, db: suite.db, logger, localWorkspaceId: ws?.id as string, ask: buildAnswering(config, suite.db, logger, local) });
    app = await buildApp({ config, db: suite.db, logger, discord: wiring.surface });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await wiring?.surface?.close(5_000);
    await wiring?.close();
    await worker?.stop();
    await runtime?.close();
    await server?.close();
  });

  async function send(body: Record<string, unknown>, to: WebApp = app): Promise<unknown> {
    const raw = JSON.stringify(body);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const res = await to.inject({
      method: 'POST',
      url: '/interactions',
      headers: { 'content-type': 'application/json', 'x-signature-ed25519': keys.sign(timestamp, raw), 'x-signature-timestamp': timestamp },
      payload: raw,
    });
    return JSON.parse(res.body) as unknown;
  }

  function interaction(channel: Record<string, unknown>, data: Record<string, unknown>) {
    return discordInteraction(
      { applicationId: APP_ID, guildId: GUILD, channel, permissions: String(PermissionFlagsBits.SendMessages), appPermissions: String(PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ReadMessageHistory) },
      { type: InteractionType.ApplicationCommand, data },
    );
  }

  const threadChannel = (id: string, name: string) => ({ id, type: ChannelType.PublicThread, name, parent_id: FORUM, guild_id: GUILD, message_count: 240 });

  /** "Save thread to brain" on a message of the thread, as Discord delivers it. */
  function saveThread(channel: Record<string, unknown>, target: FakeMessage) {
    return interaction(channel, { id: '3', name: 'Save thread to brain', type: ApplicationCommandType.Message, target_id: target.id, resolved: { messages: { [target.id]: target } } });
  }

  function askIn(channelId: string, question: string) {
    return interaction({ id: channelId, type: ChannelType.GuildText }, { id: '1', name: 'ask', type: ApplicationCommandType.ChatInput, options: [{ name: 'question', type: 3, value: question }] });
  }

  /** The edits of one interaction until its last one matches `done`. */
  async function editsUntil(token: string, done: (content: string) => boolean, timeoutMs = 30_000): Promise<DiscordWebhookCall[]> {
    return waitUntil(
      () => {
        const calls = discord.callsFor(token);
        const last = calls.at(-1);
        return last && done(contentOf(last)) ? calls : undefined;
      },
      { timeoutMs, intervalMs: 50, what: `the final edit for ${token}`, details: () => `got: ${discord.callsFor(token).map(contentOf).join(' | ')}` },
    );
  }

  const contentOf = (call: DiscordWebhookCall) => `${typeof call.body.content === 'string' ? call.body.content : ''}${JSON.stringify(call.body.embeds ?? [])}`;

  async function ask(question: string): Promise<{ answer: string; sources: string; queryId: string | undefined }> {
    const body = askIn(FORUM, question);
    await send(body);
    const [edit] = await discord.waitForCalls(body.token, 1, 20_000);
    const embeds = (edit?.body.embeds ?? []) as { title?: string; description?: string }[];
    const queryId = /"cs:([0-9a-f-]{36})"/.exec(JSON.stringify(edit?.body.components ?? []))?.[1];
    return { answer: embeds[0]?.description ?? JSON.stringify(edit?.body), sources: embeds.find((e) => e.title === 'Sources')?.description ?? '', queryId };
  }

  const passages = () =>
    withService(suite.db, (tx) => tx.query<{ id: string }>("select c.id from chunks c join artifacts a on a.id = c.artifact_id where a.kind = 'discord_thread' and a.source_key = $1", [`discord-thread:${GUILD}/${post.id}`]));

  it('saves a 240-message forum post read in three pages, waiting out 429s, as one source with per-message passages', async () => {
    // Two 429s with retry_after before the first page: discord.js REST waits them out.
    history.rateLimitNext(2, 0.2);
    const body = saveThread(threadChannel(post.id, 'Release process help'), post.byNumber.get(120) as FakeMessage);
    expect(await send(body)).toEqual({ type: 5 });
    const calls = await editsUntil(body.token, (c) => c.startsWith('✅') || c.startsWith('❌') || c.startsWith('⚠️'));
    expect(contentOf(calls[0] as DiscordWebhookCall)).toContain('📖 Reading 240 messages of *Release process help*…');
    const final = contentOf(calls.at(-1) as DiscordWebhookCall);
    const rows = await passages();
    expect(final).toContain(`✅ Saved *Release process help* — 240 messages, ${rows.length} passages`);
    // 240 short messages in passages of about 200 tokens (the figure docs/discord.md quotes).
    expect(rows).toHaveLength(59);
    expect(history.rateLimited()).toBe(2);
    const pages = history.requests.filter((r) => r.path === `/api/v10/channels/${post.id}/messages` && r.query.get('limit') === '100');
    // 242 messages in pages of 100: the third page is short, so no fourth request (plus the two 429s).
    expect(pages).toHaveLength(5);
    expect(pages.every((r) => r.headers.authorization === `Bot ${BOT_TOKEN}`)).toBe(true);

    const [artifact] = await withService(suite.db, (tx) =>
      tx.query<{ kind: string; title: string; metadata: Record<string, unknown>; text: string }>(
        `select a.kind, a.title, a.metadata, string_agg(c.content, E'\\n\\n' order by c.ordinal) as text
         from artifacts a join chunks c on c.artifact_id = a.id where a.source_key = $1 group by a.id`,
        [`discord-thread:${GUILD}/${post.id}`],
      ),
    );
    expect(artifact).toMatchObject({ kind: 'discord_thread', title: 'Release process help', metadata: { guild_id: GUILD, thread_id: post.id, parent_channel_id: FORUM, private: false, message_count: 240 } });
    expect((artifact?.metadata.message_ids as string[])[0]).toBe(post.id);
    // Bots and system messages are not part of the conversation; replies are marked.
    expect(artifact?.text).not.toContain('HelperBot');
    expect(artifact?.text).toMatch(/### Ada · 2026-12-01 09:10 UTC · reply to Ken\n/);
  });

  it('cites the message holding the fact: message 170 and message 37 each by their own jump link', async () => {
    const fact170 = THREAD_FACTS[170] as (typeof THREAD_FACTS)[number];
    const late = await ask(fact170.question);
    expect(late.answer).toContain(fact170.answer);
    expect(late.sources).toContain(jump(post.id, post.byNumber.get(170) as FakeMessage));
    const fact37 = THREAD_FACTS[37] as (typeof THREAD_FACTS)[number];
    const early = await ask(fact37.question);
    expect(early.answer).toContain(fact37.answer);
    expect(early.sources).toContain(jump(post.id, post.byNumber.get(37) as FakeMessage));
    expect(early.sources).not.toContain(`channels/${GUILD}/${post.id})`);

    // The Sources button shows the cited passage with the same message link, from the queries row.
    const press = {
      ...interaction({ id: FORUM, type: ChannelType.GuildText }, { custom_id: `cs:${early.queryId}`, component_type: 2 }),
      type: InteractionType.MessageComponent,
      message: { id: snowflakeAt(Date.now()), channel_id: FORUM, content: '', embeds: [], components: [], author: { id: APP_ID, username: 'brain', discriminator: '0', avatar: null }, timestamp: new Date().toISOString(), attachments: [], flags: 0 },
    };
    await send(press);
    const [shown] = await discord.waitForCalls(press.token, 1, 20_000);
    expect(JSON.stringify(shown?.body)).toContain(jump(post.id, post.byNumber.get(37) as FakeMessage));
    const [row] = await withService(suite.db, (tx) => tx.query<{ cited: { message_id?: string }[] }>('select cited from queries where id = $1', [early.queryId]));
    expect(row?.cited[0]?.message_id).toBe(post.byNumber.get(37)?.id);
  });

  it('re-saving the unchanged thread embeds nothing; after an edit, a re-save changes the answer', async () => {
    const before = (await passages()).map((r) => r.id).sort();
    embeds.reset();
    const again = saveThread(threadChannel(post.id, 'Release process help'), post.byNumber.get(3) as FakeMessage);
    await send(again);
    await editsUntil(again.token, (c) => c.startsWith('✅'));
    expect(embeds.embedded()).toBe(0);
    expect((await passages()).map((r) => r.id).sort()).toEqual(before);

    const m170 = post.byNumber.get(170) as FakeMessage;
    history.editMessage(post.id, m170.id, 'The release train now leaves on Fridays at 11:00 UTC from the release branch.');
    const edited = saveThread(threadChannel(post.id, 'Release process help'), post.byNumber.get(3) as FakeMessage);
    await send(edited);
    await editsUntil(edited.token, (c) => c.startsWith('✅'));
    // Only the passages around the edited message are new (up to the next anchor message).
    expect(embeds.embedded()).toBeGreaterThan(0);
    expect(embeds.embedded()).toBeLessThanOrEqual(2);
    const now = await ask('When does the release train leave?');
    expect(now.answer).toContain('Fridays at 11:00 UTC');
    expect(now.answer).not.toContain('Thursdays');
    expect(now.sources).toContain(jump(post.id, m170));
  });

  it('on the message that started a thread in a text channel, saves that thread, its starter taken from the parent', async () => {
    const channelId = '920000000000000010';
    const starterId = snowflakeAt(start + 40 * 86_400_000);
    const starter = fakeMessage({ id: starterId, channelId, author: 'Ken', content: 'Why does the VPN drop every hour?', thread: { id: starterId, type: ChannelType.PublicThread, name: 'VPN drops', parent_id: channelId } });
    history.addMessages(starterId, [
      fakeMessage({ id: snowflakeAt(start + 40 * 86_400_000 + 1000), channelId: starterId, author: 'Ken', type: 21, content: '', message_reference: { message_id: starterId, channel_id: channelId, guild_id: GUILD }, referenced_message: starter }),
      fakeMessage({ id: snowflakeAt(start + 40 * 86_400_000 + 60_000), channelId: starterId, author: 'Ada', content: 'The VPN lease is 60 minutes; renew it with the tray icon.' }),
    ]);
    const body = saveThread({ id: channelId, type: ChannelType.GuildText, name: 'general' }, starter);
    await send(body);
    const calls = await editsUntil(body.token, (c) => c.startsWith('✅') || c.startsWith('❌') || c.startsWith('⚠️'));
    expect(contentOf(calls.at(-1) as DiscordWebhookCall)).toMatch(/✅ Saved \*VPN drops\* — 2 messages, \d passages?/);
    const chunks = await withService(suite.db, (tx) =>
      tx.query<{ message_spans: { url: string }[] }>('select c.message_spans from chunks c join artifacts a on a.id = c.artifact_id where a.source_key = $1 order by c.ordinal', [`discord-thread:${GUILD}/${starterId}`]),
    );
    // The starter's link points into the parent channel, where it lives.
    expect(chunks.flatMap((c) => c.message_spans.map((s) => s.url))).toEqual([`https://discord.com/channels/${GUILD}/${channelId}/${starterId}`, expect.stringContaining(`/${GUILD}/${starterId}/`)]);
  });

  it('says why when the bot is missing access (403) or the Message Content intent is off', async () => {
    const hidden = forumPost(2);
    history.addMessages(hidden.id, hidden.messages.slice(0, 5));
    history.channel(hidden.id).forbidden = true;
    const denied = saveThread(threadChannel(hidden.id, 'Staff only'), hidden.byNumber.get(2) as FakeMessage);
    await send(denied);
    const [, refused] = await editsUntil(denied.token, (c) => c.startsWith('⚠️'));
    expect(contentOf(refused as DiscordWebhookCall)).toContain('missing access');
    expect(contentOf(refused as DiscordWebhookCall)).toContain('Read Message History');
    expect(contentOf(refused as DiscordWebhookCall)).toContain('DISCORD_MISSING_ACCESS');

    history.channel(hidden.id).forbidden = false;
    history.setMessageContentIntent(false);
    try {
      const blank = saveThread(threadChannel(hidden.id, 'Staff only'), hidden.byNumber.get(2) as FakeMessage);
      await send(blank);
      const [, empty] = await editsUntil(blank.token, (c) => c.startsWith('⚠️'));
      expect(contentOf(empty as DiscordWebhookCall)).toContain('Message Content intent is switched off');
      expect(contentOf(empty as DiscordWebhookCall)).toContain('Privileged Gateway Intents');
    } finally {
      history.setMessageContentIntent(true);
    }
    const [row] = await withService(suite.db, (tx) => tx.query<{ n: number }>('select count(*)::int as n from artifacts where source_key = $1', [`discord-thread:${GUILD}/${hidden.id}`]));
    expect(row?.n).toBe(0);
  });

  it('outside a thread it explains and points to "Save to brain"', async () => {
    const plain = fakeMessage({ id: snowflakeAt(start + 50 * 86_400_000), channelId: '920000000000000011', author: 'Ada', content: 'Just a message' });
    const reply = (await send(saveThread({ id: '920000000000000011', type: ChannelType.GuildText, name: 'general' }, plain))) as { type: number; data: { content: string; flags: number } };
    expect(reply.type).toBe(4);
    expect(reply.data.flags & 64).toBe(64);
    expect(reply.data.content).toContain('“Save to brain”');
  });

  it('without DISCORD_BOT_TOKEN it says, only to the person asking, what to configure', async () => {
    const config = loadConfig({ DISCORD_PUBLIC_KEY: keys.publicKeyHex, DISCORD_APPLICATION_ID: APP_ID, DISCORD_API_BASE: discord.apiBase, BRAIN_PLAYGROUND: 'off' }, { cwd: process.cwd() });
    const [ws] = await withService(suite.db, (tx) => tx.query<{ id: string }>('select id from workspaces where guild_id = $1', [GUILD]));
    const bare = await wireDiscord({ config, db: suite.db, logger, localWorkspaceId: ws?.id as string, ask: async () => Promise.reject(new Error('not asked')) });
    const bareApp = await buildApp({ config, db: suite.db, logger, discord: bare.surface });
    try {
      const reply = (await send(saveThread(threadChannel(post.id, 'Release process help'), post.byNumber.get(2) as FakeMessage), bareApp)) as { type: number; data: { content: string; flags: number } };
      expect(reply.type).toBe(4);
      expect(reply.data.flags & 64).toBe(64);
      expect(reply.data.content).toContain('`DISCORD_BOT_TOKEN`');
      expect(reply.data.content).toContain('Message Content intent');
    } finally {
      await bareApp.close();
      await bare.surface?.close(1_000);
      await bare.close();
    }
  });

  it('counts against the save limits like every save: past the member limit it says when to try again, and saves nothing', async () => {
    const config = loadConfig(
      { DISCORD_PUBLIC_KEY: keys.publicKeyHex, DISCORD_APPLICATION_ID: APP_ID, DISCORD_BOT_TOKEN: BOT_TOKEN, DISCORD_API_BASE: discord.apiBase, BRAIN_PLAYGROUND: 'off', BRAIN_SAVES_PER_MEMBER: '1' },
      { cwd: process.cwd() },
    );
    const [ws] = await withService(suite.db, (tx) => tx.query<{ id: string }>('select id from workspaces where guild_id = $1', [GUILD]));
    const limited = await wireDiscord({ config, db: suite.db, logger, localWorkspaceId: ws?.id as string, ask: async () => Promise.reject(new Error('not asked')) });
    const limitedApp = await buildApp({ config, db: suite.db, logger, discord: limited.surface });
    const other = forumPost(3);
    history.addMessages(other.id, other.messages.slice(0, 5));
    try {
      // Ada has already saved once in this 10-minute window (the counter as the limiter keeps it).
      await withService(suite.db, (tx) =>
        tx.query(
          `insert into rate_limit_counters (bucket, window_start, hits) values ($1, to_timestamp(floor(extract(epoch from now()) / 600) * 600), 1)
           on conflict (bucket) do update set window_start = excluded.window_start, hits = 1`,
          [`save:member:${ws?.id as string}:discord:300000000000000001`],
        ),
      );
      const body = saveThread(threadChannel(other.id, 'Busy thread'), other.byNumber.get(2) as FakeMessage);
      await send(body, limitedApp);
      const calls = await editsUntil(body.token, (c) => c.startsWith('⚠️'));
      expect(contentOf(calls.at(-1) as DiscordWebhookCall)).toMatch(/^⚠️ You have saved 1 source in the last 10 minutes, the most one member may\. Try again in \d+ (minute|second)s?; nothing was saved this time\. \(`SAVE_RATE_LIMITED_MEMBER`\)/);
      const [row] = await withService(suite.db, (tx) => tx.query<{ n: number }>('select count(*)::int as n from artifacts where source_key = $1', [`discord-thread:${GUILD}/${other.id}`]));
      expect(row?.n).toBe(0);
    } finally {
      await limitedApp.close();
      await limited.surface?.close(1_000);
      await limited.close();
    }
  });
});
