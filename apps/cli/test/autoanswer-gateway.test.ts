import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { ApplicationCommandOptionType, ApplicationCommandType, ChannelType, InteractionType, PermissionFlagsBits } from 'discord-api-types/v10';
import { loadConfig } from '@brain/config';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { generateDevKeyPair, startGatewayRunner, UNCOVERED_REACTION, type GatewayRunner } from '@brain/discord';
import { createLocalEmbedder } from '@brain/embeddings';
import { saveSource } from '@brain/ingest';
import { createLogger } from '@brain/observability';
import {
  fakeMessage,
  snowflakeAt,
  startFakeDiscord,
  startFakeDiscordBotMessages,
  startFakeDiscordGateway,
  startFakeHttpServer,
  type FakeDiscord,
  type FakeDiscordBotMessages,
  type FakeDiscordGateway,
  type FakeHttpServer,
} from '@brain/testkit';
import { buildApp, type WebApp } from '@brain/web';
import { startWorker, type WorkerHandle } from '@brain/worker';
import { waitFor } from './brain-process.ts';
import { wireDiscord, type DiscordWiring } from '../src/discord-wiring.ts';
import { buildAnswering } from '../src/services/answering.ts';
import { buildIngestRuntime, type IngestRuntime } from '../src/services/ingest.ts';

// Auto-answers end to end: /autoanswer on through the web app, discord.js connected to the fake
// Gateway (its URL from the fake REST's GET /gateway/bot), a new forum post dispatched as
// THREAD_CREATE + MESSAGE_CREATE, the real ask pipeline over a saved and indexed source, and the
// reply posted in the thread over REST. Two runners share one database lease.
const APP_ID = '950000000000000001';
const GUILD = '950000000000000002';
const FORUM = '950000000000000003';
const OTHER = '950000000000000004';
const BOT_ID = '950000000000000009';
const ASKER = '350000000000000001';
// Not "bot…": discord.js strips a leading Bot/Bearer prefix from the token it is given.
const BOT_TOKEN = 'gateway-test-token';
const logger = createLogger({ level: 'silent' });
const keys = generateDevKeyPair();

describeDb('auto-answers over the Gateway', (suite) => {
  let server: FakeHttpServer;
  let discord: FakeDiscord;
  let gateway: FakeDiscordGateway;
  let bot: FakeDiscordBotMessages;
  let runtime: IngestRuntime;
  let worker: WorkerHandle;
  let wiring: DiscordWiring;
  let app: WebApp;
  let workspaceId: string;
  let ask: ReturnType<typeof buildAnswering>;
  const runners: GatewayRunner[] = [];
  let seq = 0;

  beforeAll(async () => {
    server = await startFakeHttpServer('Discord');
    discord = await startFakeDiscord({ server });
    bot = await startFakeDiscordBotMessages({ server, token: BOT_TOKEN, botId: BOT_ID });
    gateway = await startFakeDiscordGateway({
      server,
      token: BOT_TOKEN,
      heartbeatIntervalMs: 1_000,
      bot: { id: BOT_ID, username: 'brain' },
      applicationId: APP_ID,
      guilds: [
        {
          id: GUILD,
          name: 'Support server',
          owner_id: '350000000000000099',
          unavailable: false,
          member_count: 2,
          roles: [{ id: GUILD, name: '@everyone', permissions: String(PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ReadMessageHistory | PermissionFlagsBits.SendMessages), position: 0, color: 0, hoist: false, managed: false, mentionable: false, flags: 0 }],
          channels: [
            { id: FORUM, type: ChannelType.GuildForum, name: 'help', guild_id: GUILD, position: 0, permission_overwrites: [], available_tags: [], flags: 0 },
            { id: OTHER, type: ChannelType.GuildForum, name: 'ideas', guild_id: GUILD, position: 1, permission_overwrites: [], available_tags: [], flags: 0 },
          ],
          threads: [],
          members: [],
          emojis: [],
          stickers: [],
          features: [],
        },
      ],
    });
    const [ws] = await withService(suite.db, (tx) =>
      tx.query<{ id: string }>("insert into workspaces (slug, guild_id, claim_email, claimed_at) values ('gateway', $1, 'owner@example.com', now()) returning id", [GUILD]),
    );
    workspaceId = ws?.id as string;
    const config = loadConfig(
      { DISCORD_PUBLIC_KEY: keys.publicKeyHex, DISCORD_APPLICATION_ID: APP_ID, DISCORD_BOT_TOKEN: BOT_TOKEN, DISCORD_API_BASE: discord.apiBase, BRAIN_PLAYGROUND: 'off' },
      { cwd: process.cwd() },
    );
    const embedder = createLocalEmbedder();
    runtime = buildIngestRuntime(config, suite.db, logger, embedder);
    worker = await startWorker(runtime.services, { logger, pollMs: 50 });
    await saveSource(suite.db, {
      workspaceId,
      input: { kind: 'text', title: 'Rate limits', text: '# Rate limits\n\nThe API rate limit is 120 requests per minute per token. Raise it with the `rate_limit_per_minute` setting.' },
      savedBy: 'test',
    });
    await waitFor(async () => {
      const [row] = await withService(suite.db, (tx) => tx.query<{ n: number }>("select count(*)::int as n from jobs where status in ('queued', 'running')"));
      return row?.n === 0;
    }, 30_000, 'the source to be indexed');
    ask = buildAnswering(config, suite.db, logger, embedder);
    wiring = await wireDiscord({ config, db: suite.db, logger, localWorkspaceId: '00000000-0000-0000-0000-000000000000', ask });
    app = await buildApp({ config, db: suite.db, logger, discord: wiring.surface });
  }, 60_000);

  afterEach(async () => {
    for (const r of runners.splice(0)) await r.stop();
  });

  afterAll(async () => {
    await app?.close();
    await wiring?.surface?.close(5_000);
    await wiring?.close();
    await worker?.stop();
    await runtime?.close();
    await gateway?.close();
    await server?.close();
  });

  function runner(holder: string, leaseMs = 1_500): GatewayRunner {
    const r = startGatewayRunner({
      db: suite.db,
      logger,
      botToken: BOT_TOKEN,
      apiBase: discord.apiBase,
      holder,
      leaseMs,
      tickMs: 200,
      ask,
      checkEntitlement: async () => ({ allowed: true }),
    });
    runners.push(r);
    return r;
  }

  async function command(sub: 'on' | 'off' | 'list', extra: Record<string, unknown>[] = [], permissions = PermissionFlagsBits.ManageGuild): Promise<string> {
    seq += 1;
    const token = `tok_${randomBytes(12).toString('hex')}`;
    const body = {
      id: String(BigInt(snowflakeAt(Date.now())) + BigInt(seq)),
      application_id: APP_ID,
      type: InteractionType.ApplicationCommand,
      token,
      version: 1,
      guild_id: GUILD,
      channel_id: FORUM,
      channel: { id: FORUM, type: ChannelType.GuildForum },
      member: { user: { id: ASKER, username: 'ada', global_name: 'Ada', discriminator: '0', avatar: null }, permissions: String(permissions), roles: [], joined_at: '2026-01-01T00:00:00Z', deaf: false, mute: false, flags: 0 },
      app_permissions: '0',
      locale: 'en-US',
      entitlements: [],
      authorizing_integration_owners: {},
      data: {
        id: '7',
        name: 'autoanswer',
        type: ApplicationCommandType.ChatInput,
        options: [{ name: sub, type: ApplicationCommandOptionType.Subcommand, options: extra }],
        resolved: { channels: { [FORUM]: { id: FORUM, name: 'help', type: ChannelType.GuildForum, permissions: '0' } } },
      },
    };
    const raw = JSON.stringify(body);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const res = await app.inject({
      method: 'POST',
      url: '/interactions',
      headers: { 'content-type': 'application/json', 'x-signature-ed25519': keys.sign(timestamp, raw), 'x-signature-timestamp': timestamp },
      payload: raw,
    });
    const ack = JSON.parse(res.body) as { data?: { content?: string } };
    if (ack.data?.content) return ack.data.content;
    const [edit] = await discord.waitForCalls(token, 1, 20_000);
    return String(edit?.body.content);
  }

  /** A new forum post as Discord announces it: THREAD_CREATE, then its starter message (same id). */
  function post(parent: string, title: string, content: string, author: { id: string; bot?: boolean } = { id: ASKER }): string {
    seq += 1;
    const id = String(BigInt(snowflakeAt(Date.now())) + BigInt(seq));
    gateway.dispatch('THREAD_CREATE', {
      id,
      guild_id: GUILD,
      parent_id: parent,
      owner_id: author.id,
      type: ChannelType.PublicThread,
      name: title,
      newly_created: true,
      last_message_id: id,
      message_count: 0,
      member_count: 1,
      rate_limit_per_user: 0,
      flags: 0,
      applied_tags: [],
      thread_metadata: { archived: false, auto_archive_duration: 1440, archive_timestamp: new Date().toISOString(), locked: false },
    });
    dispatchStarter(id, content, author);
    return id;
  }

  function dispatchStarter(id: string, content: string, author: { id: string; bot?: boolean } = { id: ASKER }) {
    gateway.dispatch('MESSAGE_CREATE', {
      ...fakeMessage({ id, channelId: id, author: author.bot ? 'Helper bot' : 'Ada', authorId: author.id, bot: author.bot ?? false, content }),
      guild_id: GUILD,
      channel_type: ChannelType.PublicThread,
    });
  }

  const outcomes = (threadId: string) =>
    withService(suite.db, (tx) =>
      tx.query<{ outcome: string; reason: string | null; surface: string | null; grounded: boolean | null; answer?: string | null }>(
        `select a.outcome, a.reason, q.surface, q.grounded, q.answer from auto_answers a left join queries q on q.id = a.query_id where a.thread_id = $1`,
        [threadId],
      ),
    );
  const finished = (threadId: string) => waitFor(async () => (await outcomes(threadId)).some((o) => o.outcome !== 'pending'), 20_000, `the auto-answer of ${threadId}`);

  it('stays disconnected while no channel has /autoanswer on, then /autoanswer on (admins only) connects it', async () => {
    const r = runner('solo');
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(gateway.connections).toHaveLength(0);
    expect(r.connected()).toBe(false);

    expect(await command('on', [], PermissionFlagsBits.SendMessages)).toMatch(/Manage Server/);
    const on = await command('on', [
      { name: 'channel', type: ApplicationCommandOptionType.Channel, value: FORUM },
      { name: 'when_uncovered', type: ApplicationCommandOptionType.String, value: 'reaction' },
    ]);
    expect(on).toContain(`every new post or thread in <#${FORUM}>`);
    expect(await command('list')).toContain(`<#${FORUM}>`);
    await waitFor(() => r.connected(), 20_000, 'the Gateway connection');
    // The URL came from GET /gateway/bot on the configured API base; the intents are exactly these.
    expect(server.requests.some((q) => q.path === '/api/v10/gateway/bot')).toBe(true);
    expect(gateway.connections[0]).toMatch(/^\/\?v=10&encoding=json/);
    expect(gateway.identifies.at(-1)).toMatchObject({ token: BOT_TOKEN, intents: (1 << 0) | (1 << 9) | (1 << 10) | (1 << 15) });
  }, 40_000);

  it('answers a new forum post once in its thread, cited, recorded as surface auto; a replay and a second message get nothing more', async () => {
    const r = runner('solo');
    await waitFor(() => r.connected(), 20_000, 'the Gateway connection');
    const thread = post(FORUM, 'API rate limit per minute?', 'What is the API rate limit per minute per token?');
    await bot.waitFor(thread, 1, 20_000);
    await finished(thread);
    const replies = bot.posts.filter((p) => p.channelId === thread);
    expect(replies).toHaveLength(1);
    const reply = replies[0]?.body as { embeds: { description?: string; title?: string }[]; allowed_mentions: unknown; message_reference?: { message_id: string } };
    const text = reply.embeds.map((e) => `${e.title ?? ''}\n${e.description ?? ''}`).join('\n');
    expect(text).toContain('120 requests per minute');
    expect(text).toMatch(/\[1\]/);
    expect(text).toContain('Rate limits');
    expect(reply.allowed_mentions).toEqual({ parse: [] });
    expect(reply.message_reference?.message_id).toBe(thread);
    expect(await outcomes(thread)).toEqual([{ outcome: 'answered', reason: null, surface: 'auto', grounded: true, answer: expect.stringContaining('120 requests per minute') }]);

    // The same dispatch again (a re-identify's reconcile), and a later message in the thread.
    dispatchStarter(thread, 'What is the API rate limit per minute per token?');
    gateway.dispatch('MESSAGE_CREATE', { ...fakeMessage({ id: String(BigInt(thread) + 5n), channelId: thread, author: 'Ada', authorId: ASKER, content: 'What is the rate limit?' }), guild_id: GUILD });
    await new Promise((resolve) => setTimeout(resolve, 600));
    await r.idle();
    expect(bot.posts.filter((p) => p.channelId === thread)).toHaveLength(1);
  }, 40_000);

  it('posts nothing public for a post nothing covers: the channel’s reaction, and the reason recorded', async () => {
    const r = runner('solo');
    await waitFor(() => r.connected(), 20_000, 'the Gateway connection');
    const thread = post(FORUM, 'Kubernetes ingress', 'How do I configure the kubernetes ingress controller annotations?');
    await finished(thread);
    await r.idle();
    expect(bot.posts.filter((p) => p.channelId === thread)).toEqual([]);
    expect(bot.reactions.filter((x) => x.channelId === thread)).toEqual([{ channelId: thread, messageId: thread, emoji: UNCOVERED_REACTION }]);
    const [row] = await outcomes(thread);
    expect(row).toMatchObject({ outcome: 'uncovered', surface: 'auto', grounded: false });
    // Why, as the pipeline said it (nothing retrieved, or what no saved source mentions).
    expect(row?.reason).toBeTruthy();
    expect(row?.reason).toBe(row?.answer);
  }, 40_000);

  it('ignores bot authors and channels without /autoanswer', async () => {
    const r = runner('solo');
    await waitFor(() => r.connected(), 20_000, 'the Gateway connection');
    const fromBot = post(FORUM, 'Rate limit?', 'What is the API rate limit per minute?', { id: '350000000000000077', bot: true });
    const elsewhere = post(OTHER, 'Rate limit?', 'What is the API rate limit per minute?');
    await new Promise((resolve) => setTimeout(resolve, 800));
    await r.idle();
    expect(bot.posts.filter((p) => p.channelId === fromBot || p.channelId === elsewhere)).toEqual([]);
    expect(await outcomes(fromBot)).toEqual([]);
    expect(await outcomes(elsewhere)).toEqual([]);
  }, 40_000);

  it('resumes a dropped connection and answers what it missed, once', async () => {
    const r = runner('solo');
    await waitFor(() => r.connected(), 20_000, 'the Gateway connection');
    const resumesBefore = gateway.resumes.length;
    const identifiesBefore = gateway.identifies.length;
    gateway.drop(4000);
    // Posted while the bot is away: Discord keeps it for the session's RESUME.
    const thread = post(FORUM, 'Rate limit setting', 'Which setting raises the API rate limit per minute?');
    await waitFor(() => gateway.resumes.length > resumesBefore && gateway.liveSessions() === 1, 20_000, 'the RESUME');
    await finished(thread);
    await r.idle();
    expect(gateway.identifies.length).toBe(identifiesBefore);
    expect(gateway.connections.at(-1)).toMatch(/^\/resume\?v=10&encoding=json/);
    expect(bot.posts.filter((p) => p.channelId === thread)).toHaveLength(1);
    expect((await outcomes(thread))[0]?.outcome).toBe('answered');
  }, 40_000);

  it('two workers never both connect; the standby takes over when the holder’s lease lapses', async () => {
    const identifiesBefore = gateway.identifies.length;
    const a = runner('worker-a');
    const b = runner('worker-b');
    await waitFor(() => a.connected() || b.connected(), 20_000, 'one connection');
    const [holder, standby] = a.connected() ? [a, b] : [b, a];
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect([a.connected(), b.connected()].filter(Boolean)).toHaveLength(1);
    expect(gateway.liveSessions()).toBe(1);
    expect(gateway.identifies.length - identifiesBefore).toBe(1);
    const thread = post(FORUM, 'Rate limit per token', 'What is the API rate limit per minute per token?');
    await finished(thread);
    await Promise.all([a.idle(), b.idle()]);
    expect(bot.posts.filter((p) => p.channelId === thread)).toHaveLength(1);

    // The holder dies without giving the lease up: the standby waits for it to lapse, then connects.
    await holder.stop({ release: false });
    await waitFor(() => standby.connected(), 20_000, 'the standby to take over');
    expect(gateway.liveSessions()).toBe(1);
    expect(gateway.identifies.length - identifiesBefore).toBe(2);
  }, 60_000);
});
