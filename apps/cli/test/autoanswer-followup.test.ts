import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApplicationCommandType, ChannelType, InteractionType, MessageType, PermissionFlagsBits } from 'discord-api-types/v10';
import { loadConfig } from '@brain/config';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { enableAutoanswer, generateDevKeyPair, MARK_SOLVED_COMMAND, NOT_ENTITLED_LINE, RATE_LIMITED_LINE, startGatewayRunner, type GatewayRunner } from '@brain/discord';
import { createLocalEmbedder } from '@brain/embeddings';
import { saveSource } from '@brain/ingest';
import { createLogger } from '@brain/observability';
import {
  discordInteraction,
  expectNoMoreCalls,
  fakeMessage,
  fakeThreadCreate,
  snowflakeAt,
  startFakeDiscord,
  startFakeDiscordBotMessages,
  startFakeDiscordGateway,
  startFakeDiscordHistory,
  startFakeHttpServer,
  waitUntil,
  type FakeDiscord,
  type FakeDiscordBotMessages,
  type FakeDiscordGateway,
  type FakeDiscordHistory,
  type FakeHttpServer,
  type FakeMessage,
} from '@brain/testkit';
import { buildApp, type WebApp } from '@brain/web';
import { startWorker, type WorkerHandle } from '@brain/worker';
import { wireDiscord, type DiscordWiring } from '../src/discord-wiring.ts';
import { buildAnswering } from '../src/services/answering.ts';
import { buildIngestRuntime, type IngestRuntime } from '../src/services/ingest.ts';

// Follow-ups, solved threads and edits over the Gateway: discord.js connected to the fake
// Gateway, the threads' history on the fake REST (read with the bot token), the real worker and
// ask pipeline (extractive), the bot's posts on the fake. One runner serves every case.
const APP_ID = '960000000000000001';
const GUILD = '960000000000000002';
const FORUM = '960000000000000003';
const BOT_ID = '960000000000000009';
const ASKER = '360000000000000001';
const STRANGER = '360000000000000002';
const BOT_TOKEN = 'followup-test-token';
const logger = createLogger({ level: 'silent' });
const keys = generateDevKeyPair();

describeDb('follow-ups, solved threads and edits over the Gateway', (suite) => {
  let server: FakeHttpServer;
  let discord: FakeDiscord;
  let history: FakeDiscordHistory;
  let gateway: FakeDiscordGateway;
  let bot: FakeDiscordBotMessages;
  let runtime: IngestRuntime;
  let worker: WorkerHandle;
  let wiring: DiscordWiring;
  let app: WebApp;
  let runner: GatewayRunner;
  let workspaceId: string;
  let seq = 0;
  let entitled = true;

  beforeAll(async () => {
    server = await startFakeHttpServer('Discord');
    discord = await startFakeDiscord({ server });
    history = await startFakeDiscordHistory({ server, botToken: BOT_TOKEN });
    bot = await startFakeDiscordBotMessages({ server, token: BOT_TOKEN, botId: BOT_ID });
    history.createChannel(FORUM, { guildId: GUILD, name: 'help', type: ChannelType.GuildForum, tags: [{ id: '960000000000000011', name: 'solved', moderated: false, emoji_id: null, emoji_name: null }] });
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
          owner_id: '360000000000000099',
          unavailable: false,
          member_count: 3,
          roles: [{ id: GUILD, name: '@everyone', permissions: String(PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ReadMessageHistory | PermissionFlagsBits.SendMessages), position: 0, color: 0, hoist: false, managed: false, mentionable: false, flags: 0 }],
          channels: [{ id: FORUM, type: ChannelType.GuildForum, name: 'help', guild_id: GUILD, position: 0, permission_overwrites: [], available_tags: [], flags: 0 }],
          threads: [],
          members: [],
          emojis: [],
          stickers: [],
          features: [],
        },
      ],
    });
    const [ws] = await withService(suite.db, (tx) =>
      tx.query<{ id: string }>("insert into workspaces (slug, guild_id, claim_email, claimed_at) values ('followups', $1, 'owner@example.com', now()) returning id", [GUILD]),
    );
    workspaceId = ws?.id as string;
    const config = loadConfig(
      { DISCORD_PUBLIC_KEY: keys.publicKeyHex, DISCORD_APPLICATION_ID: APP_ID, DISCORD_BOT_TOKEN: BOT_TOKEN, DISCORD_API_BASE: discord.apiBase, BRAIN_PLAYGROUND: 'off' },
      { cwd: process.cwd() },
    );
    const embedder = createLocalEmbedder();
    runtime = buildIngestRuntime(config, suite.db, logger, embedder);
    worker = await startWorker(runtime.services, { logger, pollMs: 50 });
    // Two settings that both have a default: a follow-up asking only "the default?" is about
    // whichever the thread was about, and the log level's page says "default" more often.
    await saveSource(suite.db, {
      workspaceId,
      input: { kind: 'text', title: 'Request timeout', text: '# Request timeout\n\nSet the request timeout with the `request_timeout_ms` setting; it bounds every outgoing request.\n\nThe default request timeout is 30 seconds.' },
      savedBy: 'test',
    });
    await saveSource(suite.db, {
      workspaceId,
      input: { kind: 'text', title: 'Log level', text: '# Log level\n\nThe default log level is info. The default applies to every logger, and each default can be overridden per logger with `log_level`.' },
      savedBy: 'test',
    });
    await indexed();
    const ask = buildAnswering(config, suite.db, logger, embedder);
    wiring = await wireDiscord({ config, db: suite.db, logger, localWorkspaceId: '00000000-0000-0000-0000-000000000000', ask });
    app = await buildApp({ config, db: suite.db, logger, discord: wiring.surface });
    await enableAutoanswer(suite.db, { workspaceId, guildId: GUILD, channelId: FORUM, channelName: 'help', whenUncovered: 'reaction', staffRoleId: null, enabledBy: 'test' });
    runner = startGatewayRunner({ db: suite.db, logger, botToken: BOT_TOKEN, apiBase: discord.apiBase, holder: 'followups', leaseMs: 1_500, tickMs: 200, ask, checkEntitlement: async () => (entitled ? { allowed: true } : { allowed: false, message: 'The plan allows no more answers this month.' }) });
    await waitUntil(() => runner.connected(), { timeoutMs: 20_000, what: 'the Gateway connection' });
  }, 60_000);

  afterAll(async () => {
    await runner?.stop();
    await app?.close();
    await wiring?.surface?.close(5_000);
    await wiring?.close();
    await worker?.stop();
    await runtime?.close();
    await gateway?.close();
    await server?.close();
  });

  const nextId = () => String(BigInt(snowflakeAt(Date.now())) + BigInt((seq += 1)));
  const indexed = () =>
    waitUntil(
      async () => {
        const [row] = await withService(suite.db, (tx) => tx.query<{ n: number }>("select count(*)::int as n from jobs where status in ('queued', 'running')"));
        return row?.n === 0;
      },
      { timeoutMs: 30_000, what: 'indexing to finish' },
    );

  /** A new forum post, as Discord announces it (THREAD_CREATE, then its starter), also readable over REST. */
  function post(title: string, content: string, author = ASKER): { thread: string; starter: FakeMessage } {
    const thread = nextId();
    history.createThread(thread, { parentId: FORUM, name: title, ownerId: author });
    const starter = fakeMessage({ id: thread, channelId: thread, author: 'Ada', authorId: author, content });
    history.addMessages(thread, [starter]);
    gateway.dispatch('THREAD_CREATE', fakeThreadCreate({ id: thread, guildId: GUILD, parentId: FORUM, ownerId: author, name: title }));
    gateway.dispatch('MESSAGE_CREATE', { ...starter, guild_id: GUILD, channel_type: ChannelType.PublicThread });
    return { thread, starter };
  }

  /** A later message in a thread; `replyTo` makes it a reply (type 19) to that message. */
  function say(thread: string, content: string, options: { author?: string; replyTo?: FakeMessage; mentions?: { id: string }[]; bot?: boolean } = {}): FakeMessage {
    const message = fakeMessage({
      id: nextId(),
      channelId: thread,
      author: options.bot ? 'brain' : 'Ada',
      authorId: options.author ?? ASKER,
      bot: options.bot ?? false,
      content,
      ...(options.replyTo ? { type: MessageType.Reply, message_reference: { message_id: options.replyTo.id, channel_id: thread, guild_id: GUILD }, referenced_message: options.replyTo } : {}),
      ...(options.mentions ? { mentions: options.mentions.map((m) => ({ id: m.id, username: 'brain', global_name: null, discriminator: '0', avatar: null, bot: m.id === BOT_ID })) } : {}),
    });
    history.addMessages(thread, [message]);
    gateway.dispatch('MESSAGE_CREATE', { ...message, guild_id: GUILD, channel_type: ChannelType.PublicThread });
    return message;
  }

  /** The bot's reply in a thread as the message Discord stores (author: the bot), to reply to. */
  function botReply(thread: string, index = 0): FakeMessage {
    const posted = bot.posts.filter((p) => p.channelId === thread)[index];
    if (!posted) throw new Error(`no bot post ${index} in ${thread}`);
    return fakeMessage({ id: posted.id, channelId: thread, author: 'brain', authorId: BOT_ID, bot: true, content: '' });
  }

  const replyText = (thread: string, index: number) => {
    const body = bot.posts.filter((p) => p.channelId === thread)[index]?.body as { embeds?: { title?: string; description?: string }[] } | undefined;
    return (body?.embeds ?? []).map((e) => `${e.title ?? ''}\n${e.description ?? ''}`).join('\n');
  };

  /** The answer itself: the first embed's text, without the title, sources or footer. */
  const answerOf = (thread: string, index: number) => {
    const body = bot.posts.filter((p) => p.channelId === thread)[index]?.body as { embeds?: { description?: string }[] } | undefined;
    return body?.embeds?.[0]?.description ?? '';
  };

  const threadSource = (thread: string) =>
    withService(suite.db, (tx) =>
      tx.query<{ id: string; solved: string | null; message_ids: string[]; forgotten: boolean }>(
        `select id, metadata->>'solved' as solved, array(select jsonb_array_elements_text(metadata->'message_ids')) as message_ids, forgotten_at is not null as forgotten
           from artifacts where workspace_id = $1 and source_key = $2`,
        [workspaceId, `discord-thread:${GUILD}/${thread}`],
      ),
    );

  it('answers a reply to the bot in context: "and what about the default?" is about the request timeout, recorded with its rewrite', async () => {
    const { thread } = post('Request timeout', 'How do I set the request timeout?');
    await bot.waitFor(thread, 1, 20_000);
    expect(replyText(thread, 0)).toContain('request_timeout_ms');

    // Talking among themselves: no reply. Then a reply to the bot's answer.
    say(thread, 'I think the default is in the docs somewhere', { author: STRANGER });
    const followUp = say(thread, 'and what about the default?', { replyTo: botReply(thread) });
    await bot.waitFor(thread, 2, 20_000);
    const answer = answerOf(thread, 1);
    expect(answer).toContain('30 seconds');
    expect(answer).not.toContain('info');
    const reply = bot.posts.filter((p) => p.channelId === thread)[1]?.body as { message_reference?: { message_id: string }; allowed_mentions?: unknown };
    expect(reply.message_reference?.message_id).toBe(followUp.id);
    expect(reply.allowed_mentions).toEqual({ parse: [] });
    // Its own 👍/👎 and Sources (the follow-up's query), and the thread's "Still need help?".
    const [auto] = await withService(suite.db, (tx) => tx.query<{ id: string }>('select id from auto_answers where thread_id = $1', [thread]));
    const ids = JSON.stringify((bot.posts.filter((p) => p.channelId === thread)[1]?.body as { components?: unknown }).components);
    expect(ids).toMatch(/"fb:up:[0-9a-f-]{36}"/);
    expect(ids).toContain(`"ah:${auto?.id}"`);

    await waitUntil(async () => (await followUps(thread)).every((f) => f.outcome !== 'pending'), { what: 'the follow-up to finish' });
    const [row] = await followUps(thread);
    expect(row).toMatchObject({ message_id: followUp.id, original: 'and what about the default?', rewritten: 'and what about the default (request timeout)?', rewritten_by: 'rule', outcome: 'answered', surface: 'follow_up', question: 'and what about the default (request timeout)?' });

    // The same dispatch again (a replay after a RESUME) answers nothing more.
    gateway.dispatch('MESSAGE_CREATE', { ...followUp, guild_id: GUILD, channel_type: ChannelType.PublicThread });
    await expectNoMoreCalls(() => bot.posts.filter((p) => p.channelId === thread), 600);
    await runner.idle();
    expect(await followUps(thread)).toHaveLength(1);
  }, 60_000);

  it('answers a mention of the bot too; nothing in a thread silenced by “Still need help?” or one it never answered', async () => {
    const { thread } = post('Request timeout again', 'How do I set the request timeout?');
    await bot.waitFor(thread, 1, 20_000);
    say(thread, `<@${BOT_ID}> and how long is it by default?`, { mentions: [{ id: BOT_ID }] });
    await bot.waitFor(thread, 2, 20_000);
    expect(answerOf(thread, 1)).toContain('30 seconds');

    // "Still need help?" silenced the thread (staff took over): the bot stays quiet there.
    await withService(suite.db, (tx) => tx.query("update auto_answers set silenced_at = now(), silenced_by = $2 where thread_id = $1", [thread, ASKER]));
    say(thread, `<@${BOT_ID}> and how long is it by default?`, { mentions: [{ id: BOT_ID }] });
    await expectNoMoreCalls(() => bot.posts.filter((p) => p.channelId === thread), 600);

    // A thread the bot never answered (nothing covers it): a mention there is no follow-up.
    const { thread: uncovered } = post('Kubernetes ingress', 'How do I configure the kubernetes ingress controller annotations?');
    await waitUntil(() => bot.reactions.some((r) => r.channelId === uncovered), { timeoutMs: 20_000, what: 'the uncovered reaction' });
    say(uncovered, `<@${BOT_ID}> and what about the default?`, { mentions: [{ id: BOT_ID }] });
    await expectNoMoreCalls(() => bot.posts.filter((p) => p.channelId === uncovered), 600);
    await runner.idle();
    expect(await followUps(uncovered)).toEqual([]);
    expect(await followUps(thread)).toHaveLength(1);
  }, 60_000);

  it('a follow-up past the plan’s allowance says so in the thread, with “Still need help?”, and is recorded (queries surface follow_up)', async () => {
    const { thread } = post('Request timeout', 'How do I set the request timeout?');
    await bot.waitFor(thread, 1, 20_000);
    entitled = false;
    try {
      say(thread, 'and what about the default?', { replyTo: botReply(thread) });
      await bot.waitFor(thread, 2, 20_000);
    } finally {
      entitled = true;
    }
    const line = bot.posts.filter((p) => p.channelId === thread)[1]?.body as { content?: string; components?: unknown };
    expect(line.content).toBe(NOT_ENTITLED_LINE);
    expect(JSON.stringify(line.components)).toMatch(/"ah:[0-9a-f-]{36}"/);
    await waitUntil(async () => (await followUps(thread)).every((f) => f.outcome !== 'pending'), { what: 'the follow-up to finish' });
    expect(await followUps(thread)).toEqual([expect.objectContaining({ outcome: 'not_entitled', surface: 'follow_up', question: 'and what about the default (request timeout)?' })]);
  }, 60_000);

  it('a reply that arrives while the first answer is still being recorded waits for it instead of being dropped', async () => {
    const { thread } = post('Request timeout', 'How do I set the request timeout?');
    await bot.waitFor(thread, 1, 20_000);
    await runner.idle();
    // The reply is out before the row says "answered": put the thread back in that window.
    const setOutcome = (outcome: string) => withService(suite.db, (tx) => tx.query('update auto_answers set outcome = $2 where thread_id = $1', [thread, outcome]));
    await setOutcome('pending');
    say(thread, 'and what about the default?', { replyTo: botReply(thread) });
    await expectNoMoreCalls(() => bot.posts.filter((p) => p.channelId === thread), 600);
    await setOutcome('answered');
    await bot.waitFor(thread, 2, 20_000);
    expect(answerOf(thread, 1)).toContain('30 seconds');
  }, 60_000);

  it('follow-ups count against the channel’s hourly limit with the first answers: past it, the rate-limited line, recorded so', async () => {
    const { thread } = post('Request timeout', 'How do I set the request timeout?');
    await bot.waitFor(thread, 1, 20_000);
    say(thread, 'and what about the default?', { replyTo: botReply(thread) });
    await bot.waitFor(thread, 2, 20_000);
    await waitUntil(async () => (await followUps(thread)).every((f) => f.outcome !== 'pending'), { what: 'the first follow-up to finish' });
    // The allowance is exactly what the channel had this hour, first answers and follow-ups
    // together (this thread's follow-up among them): counting first answers alone leaves room.
    const [used] = await withService(suite.db, (tx) =>
      tx.query<{ n: number }>(
        `select ((select count(*) from auto_answers where workspace_id = $1 and channel_id = $2 and outcome <> 'rate_limited')
               + (select count(*) from follow_ups where workspace_id = $1 and channel_id = $2 and outcome <> 'rate_limited'))::int as n`,
        [workspaceId, FORUM],
      ),
    );
    const setLimit = (n: number) => withService(suite.db, (tx) => tx.query('update autoanswer_channels set max_per_hour = $3 where workspace_id = $1 and channel_id = $2', [workspaceId, FORUM, n]));
    await setLimit(used?.n as number);
    try {
      say(thread, 'and is there a maximum?', { replyTo: botReply(thread) });
      await bot.waitFor(thread, 3, 20_000);
    } finally {
      await setLimit(20);
    }
    expect((bot.posts.filter((p) => p.channelId === thread)[2]?.body as { content?: string }).content).toBe(RATE_LIMITED_LINE);
    await waitUntil(async () => (await followUps(thread)).every((f) => f.outcome !== 'pending'), { what: 'the second follow-up to finish' });
    expect((await followUps(thread)).map((f) => f.outcome)).toEqual(['answered', 'rate_limited']);
    expect((await followUps(thread))[1]).toMatchObject({ surface: 'follow_up' });
  }, 60_000);

  it('a ✅ from a random member saves nothing; a ✅ from the post’s author saves the thread as a solved source, without the bot’s messages', async () => {
    const { thread, starter } = post('Timeout question', 'How do I set the request timeout?');
    await bot.waitFor(thread, 1, 20_000);
    const answerByPerson = say(thread, 'Use request_timeout_ms, it worked for me', { author: STRANGER });
    const fromBot = say(thread, 'An automated note from a bot', { author: BOT_ID, bot: true });

    gateway.dispatch('MESSAGE_REACTION_ADD', { user_id: STRANGER, channel_id: thread, message_id: answerByPerson.id, guild_id: GUILD, member: { roles: [], user: { id: STRANGER } }, emoji: { id: null, name: '✅' } });
    await waitUntil(() => history.requests.some((r) => r.path === `/api/v10/channels/${thread}`), { what: 'the reaction to be looked at' });
    await runner.idle();
    expect(await threadSource(thread)).toEqual([]);

    gateway.dispatch('MESSAGE_REACTION_ADD', { user_id: ASKER, channel_id: thread, message_id: answerByPerson.id, guild_id: GUILD, member: { roles: [], user: { id: ASKER } }, emoji: { id: null, name: '✅' } });
    const [source] = await waitUntil(async () => {
      const rows = await threadSource(thread);
      return rows.length > 0 ? rows : undefined;
    }, { timeoutMs: 20_000, what: 'the thread to be saved' });
    expect(source?.solved).toBe('true');
    expect(source?.message_ids).toEqual([starter.id, answerByPerson.id]);
    expect(source?.message_ids).not.toContain(fromBot.id);
    const [mark] = await withService(suite.db, (tx) => tx.query<{ how: string; marked_by: string }>('select how, marked_by from solved_threads where thread_id = $1', [thread]));
    expect(mark).toEqual({ how: 'reaction', marked_by: `discord:${ASKER}` });
  }, 60_000);

  it('an edit and a delete in a thread that is a source refresh it; in one that is not, nothing is saved', async () => {
    const { thread, starter } = post('Retries', 'How many retries happen after a timeout?');
    await bot.waitFor(thread, 1, 20_000);
    const reply = say(thread, 'Three retries, with backoff', { author: STRANGER });
    const extra = say(thread, 'Also the backoff doubles each time', { author: STRANGER });
    // Not a source yet: an edit changes nothing in the brain.
    history.editMessage(thread, reply.id, 'Three retries, with exponential backoff');
    gateway.dispatch('MESSAGE_UPDATE', { id: reply.id, channel_id: thread, guild_id: GUILD, content: 'Three retries, with exponential backoff', author: reply.author });
    // A refresh would read the thread over REST.
    await expectNoMoreCalls(() => history.requests.filter((r) => r.path.startsWith(`/api/v10/channels/${thread}`)), 600);
    expect(await threadSource(thread)).toEqual([]);

    gateway.dispatch('MESSAGE_REACTION_ADD', { user_id: ASKER, channel_id: thread, message_id: reply.id, guild_id: GUILD, member: { roles: [] }, emoji: { id: null, name: '✅' } });
    await waitUntil(async () => (await threadSource(thread)).length > 0, { timeoutMs: 20_000, what: 'the thread to be saved' });
    await indexed();

    history.editMessage(thread, reply.id, 'Five retries, with jittered exponential backoff');
    gateway.dispatch('MESSAGE_UPDATE', { id: reply.id, channel_id: thread, guild_id: GUILD, content: 'Five retries, with jittered exponential backoff', author: reply.author, edited_timestamp: new Date().toISOString() });
    await waitUntil(async () => (await passagesOf(thread)).some((c) => c.includes('Five retries, with jittered')), { timeoutMs: 20_000, what: 'the edit to be indexed' });

    history.deleteMessage(thread, extra.id);
    gateway.dispatch('MESSAGE_DELETE', { id: extra.id, channel_id: thread, guild_id: GUILD });
    await waitUntil(async () => {
      const [row] = await threadSource(thread);
      return row && !row.message_ids.includes(extra.id) ? row : undefined;
    }, { timeoutMs: 20_000, what: 'the delete to refresh the source' });
    const [row] = await threadSource(thread);
    expect(row?.message_ids).toEqual([starter.id, reply.id]);
    // Still solved: the mark outlives the refresh.
    expect(row?.solved).toBe('true');
  }, 60_000);

  it('a solved tag applied to a post (THREAD_UPDATE) saves it as solved', async () => {
    const { thread } = post('Timeout default', 'What is the request timeout unless I change it?');
    await bot.waitFor(thread, 1, 20_000);
    say(thread, 'It is 30 seconds', { author: STRANGER });
    const info = history.channel(thread).info;
    if (info) info.applied_tags = ['960000000000000011'];
    gateway.dispatch('THREAD_UPDATE', { id: thread, guild_id: GUILD, parent_id: FORUM, owner_id: ASKER, type: ChannelType.PublicThread, name: 'Timeout default', applied_tags: ['960000000000000011'] });
    const [source] = await waitUntil(async () => {
      const rows = await threadSource(thread);
      return rows.length > 0 ? rows : undefined;
    }, { timeoutMs: 20_000, what: 'the tagged thread to be saved' });
    expect(source?.solved).toBe('true');
  }, 60_000);

  it('"Mark solved": refused to a member who neither started the thread nor manages threads; the author’s saves it', async () => {
    const thread = nextId();
    history.createThread(thread, { parentId: FORUM, name: 'Marked by hand', ownerId: ASKER });
    const starter = fakeMessage({ id: thread, channelId: thread, author: 'Ada', authorId: ASKER, content: 'Where is the request timeout set?' });
    const answer = fakeMessage({ id: nextId(), channelId: thread, author: 'Bob', authorId: STRANGER, content: 'In request_timeout_ms.' });
    history.addMessages(thread, [starter, answer]);
    const channel = { id: thread, type: ChannelType.PublicThread, name: 'Marked by hand', parent_id: FORUM, guild_id: GUILD, owner_id: ASKER };
    const markSolved = (user: string, permissions = PermissionFlagsBits.SendMessages) =>
      discordInteraction(
        { applicationId: APP_ID, guildId: GUILD, channel, permissions: String(permissions), user: { id: user, username: user === ASKER ? 'ada' : 'bob' } },
        { type: InteractionType.ApplicationCommand, data: { id: '4', name: MARK_SOLVED_COMMAND, type: ApplicationCommandType.Message, target_id: answer.id, resolved: { messages: { [answer.id]: answer } } } },
      );

    const refused = (await send(markSolved(STRANGER))) as { data?: { content?: string; flags?: number } };
    expect(refused.data?.content).toMatch(/Only the person who started this thread, or someone with Manage Threads/);
    expect(await threadSource(thread)).toEqual([]);

    const body = markSolved(ASKER);
    expect(await send(body)).toMatchObject({ type: 5 });
    const [edit] = await discord.waitForCalls(body.token, 1, 20_000);
    expect(String(edit?.body.content)).toContain('Marked solved: “Marked by hand” is now saved to the brain');
    const [source] = await threadSource(thread);
    expect(source).toMatchObject({ solved: 'true', message_ids: [starter.id, answer.id], forgotten: false });

    // A moderator (Manage Threads) may mark anyone's thread: the source is refreshed, not duplicated.
    const moderator = markSolved(STRANGER, PermissionFlagsBits.ManageThreads);
    await send(moderator);
    const [again] = await discord.waitForCalls(moderator.token, 1, 20_000);
    expect(String(again?.body.content)).toContain('is refreshed in the brain');
    expect(await threadSource(thread)).toHaveLength(1);
  }, 60_000);

  async function send(body: Record<string, unknown>): Promise<unknown> {
    const raw = JSON.stringify(body);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const res = await app.inject({
      method: 'POST',
      url: '/interactions',
      headers: { 'content-type': 'application/json', 'x-signature-ed25519': keys.sign(timestamp, raw), 'x-signature-timestamp': timestamp },
      payload: raw,
    });
    return JSON.parse(res.body) as unknown;
  }

  function followUps(thread: string) {
    return withService(suite.db, (tx) =>
      tx.query<{ message_id: string; original: string; rewritten: string | null; rewritten_by: string | null; outcome: string; surface: string | null; question: string | null }>(
        `select f.message_id, f.original, f.rewritten, f.rewritten_by, f.outcome, q.surface, q.question
           from follow_ups f left join queries q on q.id = f.query_id where f.thread_id = $1 order by f.created_at`,
        [thread],
      ),
    );
  }

  function passagesOf(thread: string): Promise<string[]> {
    return withService(suite.db, async (tx) =>
      (
        await tx.query<{ content: string }>('select c.content from chunks c join artifacts a on a.id = c.artifact_id where a.source_key = $1', [`discord-thread:${GUILD}/${thread}`])
      ).map((r) => r.content),
    );
  }
});
