import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApplicationCommandOptionType, ApplicationCommandType, ChannelType, InteractionType, PermissionFlagsBits } from 'discord-api-types/v10';
import { loadConfig } from '@brain/config';
import { EVERYTHING, withService, type Database } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { addSyncedChannel, createDiscordHistory, generateDevKeyPair, listSyncedChannels, removeSyncedChannel, syncChannel, type DiscordHistory } from '@brain/discord';
import { createLocalEmbedder } from '@brain/embeddings';
import { forgetSource } from '@brain/ingest';
import { createLogger } from '@brain/observability';
import { discordInteraction, fakeMessage, snowflakeAt, startFakeDiscord, startFakeDiscordHistory, startFakeHttpServer, waitUntil, type FakeDiscord, type FakeDiscordHistory, type FakeHttpServer, type FakeMessage } from '@brain/testkit';
import { buildApp, type WebApp } from '@brain/web';
import { startWorker, sweep, type WorkerHandle } from '@brain/worker';
import { wireDiscord, type DiscordWiring } from '../src/discord-wiring.ts';
import { buildAnswering } from '../src/services/answering.ts';
import { buildIngestRuntime, type IngestRuntime } from '../src/services/ingest.ts';
import { countingEmbedder } from './counting-embedder.ts';

// /sync end to end against the fake Discord REST: /sync add through the web app, the worker's
// sync_channel task reading threads (active, archived in pages), a forum's tagged posts, pins and
// the channel's days through discord.js REST, the real worker indexing, and /ask citing messages.
const APP_ID = '940000000000000001';
const GUILD = '940000000000000002';
const HELP = '940000000000000003';
const FORUM = '940000000000000004';
const SECRET = '940000000000000005';
const BIG = '940000000000000006';
const BOT_TOKEN = 'bot-token-for-sync-tests';
const logger = createLogger({ level: 'silent' });
const keys = generateDevKeyPair();
const t0 = Date.parse('2026-11-29T10:00:00Z');
/** Archived threads beyond one page of 100, so the `before` pagination is exercised. */
const ARCHIVED = 103;

let ms = 0;
const nextId = () => snowflakeAt(t0 + (ms += 60_000));

describeDb('/sync end to end', (suite) => {
  let server: FakeHttpServer;
  let discord: FakeDiscord;
  let history: FakeDiscordHistory;
  let reader: DiscordHistory;
  let runtime: IngestRuntime;
  let worker: WorkerHandle;
  let wiring: DiscordWiring;
  let app: WebApp;
  let workspaceId: string;
  let embeds: ReturnType<typeof countingEmbedder>;
  const msgs: Record<string, FakeMessage> = {};
  let vpnThread = '';
  let goneThread = '';
  let solvedPost = '';

  const say = (channelId: string, key: string, author: string, content: string) => {
    const m = fakeMessage({ id: nextId(), channelId, author, content });
    history.addMessages(channelId, [m]);
    msgs[key] = m;
    return m;
  };

  beforeAll(async () => {
    // Each database's suite builds the same server from the same clock.
    ms = 0;
    server = await startFakeHttpServer('Discord');
    discord = await startFakeDiscord({ server });
    history = await startFakeDiscordHistory({ server });

    history.createChannel(HELP, { guildId: GUILD, name: 'help' });
    say(HELP, 'day1a', 'Ada', 'Morning all, the coffee machine on floor 3 is fixed.');
    say(HELP, 'day1b', 'Grace', 'The office wifi password is printed on the kitchen door.');
    vpnThread = say(HELP, 'starter', 'Linus', 'How do I reach the VPN from home?').id;
    history.createThread(vpnThread, { parentId: HELP, name: 'VPN from home' });
    say(vpnThread, 'vpn1', 'Margaret', 'The VPN gateway is vpn-east.example.org on port 8443.');
    say(vpnThread, 'vpn2', 'Linus', 'Thanks, that works.');
    say(vpnThread, 'vpnDeleted', 'Ken', 'Deployment freezes start on the 18th of December.');
    goneThread = nextId();
    history.createThread(goneThread, { parentId: HELP, name: 'Printer jam' });
    say(goneThread, 'printer', 'Ada', 'The printer jams when the duplex tray is open.');
    for (let i = 0; i < ARCHIVED; i++) {
      const id = nextId();
      history.createThread(id, { parentId: HELP, name: `Old question ${i}` });
      say(id, `old${i}`, 'Grace', i === 7 ? 'The on-call rota lives in the Ops wiki under Rotations.' : `Archived chat number ${i}.`);
      history.archiveThread(id, new Date(t0 + 3_600_000 + i * 1000).toISOString());
    }
    ms += 86_400_000;
    say(HELP, 'day2', 'Ken', 'Reminder: the quarterly all-hands is in room Everest.');
    history.pin(HELP, msgs.day1b?.id as string, '2026-11-30T12:00:00.000Z');

    history.createChannel(FORUM, {
      guildId: GUILD,
      name: 'support',
      type: ChannelType.GuildForum,
      tags: [
        { id: '1', name: 'Solved', moderated: false, emoji_id: null, emoji_name: null },
        { id: '2', name: 'bug', moderated: false, emoji_id: null, emoji_name: null },
      ],
    });
    solvedPost = nextId();
    history.createThread(solvedPost, { parentId: FORUM, name: 'Login loop on Safari', tags: ['1', '2'] });
    history.addMessages(solvedPost, [fakeMessage({ id: solvedPost, channelId: solvedPost, author: 'Ada', content: 'Safari loops on login.' })]);
    say(solvedPost, 'safari', 'Grace', 'Clearing the site cookies for sso.example.org stops the Safari login loop.');
    const open = nextId();
    history.createThread(open, { parentId: FORUM, name: 'Slow search', tags: ['2'] });
    history.addMessages(open, [fakeMessage({ id: open, channelId: open, author: 'Ken', content: 'Search takes 9 seconds.' })]);

    history.createChannel(SECRET, { guildId: GUILD, name: 'staff' });
    say(SECRET, 'secret', 'Ada', 'Salaries are reviewed in March.');
    history.setForbidden(SECRET, true);

    const [ws] = await withService(suite.db, (tx) =>
      tx.query<{ id: string }>("insert into workspaces (slug, guild_id, claim_email, claimed_at) values ('sync', $1, 'owner@example.com', now()) returning id", [GUILD]),
    );
    workspaceId = ws?.id as string;
    const config = loadConfig(
      { DISCORD_PUBLIC_KEY: keys.publicKeyHex, DISCORD_APPLICATION_ID: APP_ID, DISCORD_BOT_TOKEN: BOT_TOKEN, DISCORD_API_BASE: discord.apiBase, BRAIN_PLAYGROUND: 'off' },
      { cwd: process.cwd() },
    );
    reader = createDiscordHistory({ apiBase: discord.apiBase, botToken: BOT_TOKEN });
    const local = createLocalEmbedder();
    embeds = countingEmbedder(local);
    runtime = buildIngestRuntime(config, suite.db, logger, embeds.embedder);
    worker = await startWorker(runtime.services, { logger, pollMs: 50 });
    wiring = await wireDiscord({ config, db: suite.db, logger, localWorkspaceId: workspaceId, ask: buildAnswering(config, suite.db, logger, local) });
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

  function interaction(data: Record<string, unknown>, permissions: bigint) {
    return discordInteraction(
      {
        applicationId: APP_ID,
        guildId: GUILD,
        channel: { id: HELP, type: ChannelType.GuildText },
        permissions: String(permissions),
        appPermissions: String(PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ReadMessageHistory),
      },
      { type: InteractionType.ApplicationCommand, data },
    );
  }


  const admin = PermissionFlagsBits.ManageGuild | PermissionFlagsBits.SendMessages;
  function syncCmd(sub: 'add' | 'remove' | 'list', channel?: { id: string; name: string; type: number }, permissions = admin) {
    const options = channel ? [{ name: 'channel', type: ApplicationCommandOptionType.Channel, value: channel.id }] : [];
    return interaction(
      {
        id: '5',
        name: 'sync',
        type: ApplicationCommandType.ChatInput,
        options: [{ name: sub, type: ApplicationCommandOptionType.Subcommand, options }],
        ...(channel ? { resolved: { channels: { [channel.id]: { ...channel, permissions: '0' } } } } : {}),
      },
      permissions,
    );
  }

  async function reply(body: { token: string }): Promise<string> {
    const [edit] = await discord.waitForCalls(body.token, 1, 20_000);
    const content = edit?.body.content;
    return typeof content === 'string' ? content : JSON.stringify(edit?.body);
  }

  async function ask(question: string): Promise<{ answer: string; sources: string }> {
    const body = interaction({ id: '1', name: 'ask', type: ApplicationCommandType.ChatInput, options: [{ name: 'question', type: 3, value: question }] }, PermissionFlagsBits.SendMessages);
    await send(body);
    const [edit] = await discord.waitForCalls(body.token, 1, 20_000);
    const embeds = (edit?.body.embeds ?? []) as { title?: string; description?: string }[];
    return { answer: embeds[0]?.description ?? JSON.stringify(edit?.body), sources: embeds.find((e) => e.title === 'Sources')?.description ?? '' };
  }

  const channelRow = async (channelId: string) => (await listSyncedChannels(suite.db, workspaceId)).find((c) => c.channelId === channelId);

  /** Until no job is queued or running: the sync passes and the indexing they queued. */
  async function settle(timeoutMs = 90_000): Promise<void> {
    let pending: number | undefined;
    await waitUntil(
      async () => {
        const [row] = await withService(suite.db, (tx) => tx.query<{ n: number }>("select count(*)::int as n from jobs where status in ('queued', 'running')"));
        pending = row?.n;
        return pending === 0;
      },
      { timeoutMs, intervalMs: 50, what: 'every job to finish', details: () => `jobs still pending: ${pending}` },
    );
  }

  const jump = (channelId: string, m: FakeMessage | undefined) => `https://discord.com/channels/${GUILD}/${channelId}/${m?.id}`;
  const sources = (db: Database, prefix: string) =>
    withService(db, (tx) =>
      tx.query<{ source_key: string; title: string; status: string; forgotten: boolean; metadata: Record<string, unknown> }>(
        "select source_key, title, status, forgotten_at is not null as forgotten, metadata from artifacts where source_key like $1 || '%' order by source_key",
        [prefix],
      ),
    );

  it('refuses /sync to someone without Manage Server', async () => {
    const body = syncCmd('add', { id: HELP, name: 'help', type: ChannelType.GuildText }, PermissionFlagsBits.SendMessages);
    const res = (await send(body)) as { type: number; data?: { content?: string; flags?: number } };
    expect(res.type).toBe(4);
    expect(res.data?.content).toMatch(/Manage Server|admin/i);
    expect(await channelRow(HELP)).toBeUndefined();
  });

  it('/sync add backfills a channel: every thread (active, and archived across pages), one source per UTC day, its pins; answers cite the message', async () => {
    const body = syncCmd('add', { id: HELP, name: 'help', type: ChannelType.GuildText });
    expect(await send(body)).toMatchObject({ type: 5 });
    expect(await reply(body)).toContain(`Syncing <#${HELP}>`);
    await settle();

    const help = await channelRow(HELP);
    expect(help).toMatchObject({ state: 'current', channelName: 'help', pauseReason: null });
    // 2 active + 103 archived threads, 2 days, 1 pin.
    expect(help?.sourceCount).toBe(2 + ARCHIVED + 2 + 1);
    const threads = await sources(suite.db, `discord-thread:${GUILD}/`);
    expect(threads.filter((t) => t.title.startsWith('Old question'))).toHaveLength(ARCHIVED);
    expect(threads.every((t) => t.status === 'ready')).toBe(true);
    const archivedPages = history.requests.filter((r) => r.path === `/api/v10/channels/${HELP}/threads/archived/public`);
    expect(archivedPages.map((r) => r.query.get('before') !== null)).toEqual([false, true]);

    const days = await sources(suite.db, `discord-channel-day:${GUILD}/${HELP}/`);
    expect(days.map((d) => d.title)).toEqual(['#help — 2026-11-29', '#help — 2026-11-30']);
    expect(days[0]?.metadata).toMatchObject({ guild_id: GUILD, channel_id: HELP, thread_id: null, day: '2026-11-29', message_ids: [msgs.day1a?.id, msgs.day1b?.id, msgs.starter?.id] });
    const [vpn] = await sources(suite.db, `discord-thread:${GUILD}/${vpnThread}`);
    expect(vpn?.metadata).toMatchObject({ guild_id: GUILD, thread_id: vpnThread, parent_channel_id: HELP, private: false });
    // Who may be quoted them (audiences): the channel's readers, for its threads, days and pins alike.
    const origins = await withService(suite.db, (tx) =>
      tx.query<{ source_key: string; origin_channel_id: string; origin_parent_id: string | null; origin_private_thread: boolean; audience: string }>(
        'select source_key, origin_channel_id, origin_parent_id, origin_private_thread, audience from artifacts where source_key = any($1) order by source_key',
        [[`discord-channel-day:${GUILD}/${HELP}/2026-11-29`, `discord-thread:${GUILD}/${vpnThread}`, `discord:${GUILD}/${HELP}/${msgs.day1b?.id}`]],
      ),
    );
    expect(origins.map((o) => [o.origin_channel_id, o.origin_parent_id, o.origin_private_thread, o.audience])).toEqual([
      [HELP, null, false, `channel:${HELP}`],
      [vpnThread, HELP, false, `channel:${HELP}`],
      [HELP, null, false, `channel:${HELP}`],
    ]);
    const [pin] = await sources(suite.db, `discord:${GUILD}/${HELP}/${msgs.day1b?.id}`);
    expect(pin?.title).toMatch(/^Pinned in #help: The office wifi password/);

    const gateway = await ask('What is the VPN gateway?');
    expect(gateway.answer).toContain('vpn-east.example.org');
    expect(gateway.sources).toContain(jump(vpnThread, msgs.vpn1));
    const rota = await ask('Where does the on-call rota live?');
    expect(rota.answer).toContain('Ops wiki');
    const allHands = await ask('Where is the quarterly all-hands?');
    expect(allHands.sources).toContain(jump(HELP, msgs.day2));

    const list = syncCmd('list');
    await send(list);
    // Messages: 3 + 1 in the two active threads, one in each archived one, 3 + 1 in the days, the pin.
    expect(await reply(list)).toMatch(new RegExp(`✅ <#${HELP}> — current \\(${4 + ARCHIVED + 4 + 1} messages in ${2 + ARCHIVED + 3} sources, last synced <t:\\d+:R>\\)`));
  }, 180_000);

  it('a forum: one source per post with its tags, a "Solved" post marked', async () => {
    const { channel } = await addSyncedChannel(suite.db, { workspaceId, guildId: GUILD, channelId: FORUM, channelName: 'support', kind: 'forum', pinsOnly: false, addedBy: 'test' });
    await settle();
    expect((await channelRow(FORUM))?.state).toBe('current');
    const posts = await sources(suite.db, `discord-thread:${GUILD}/`).then((rows) => rows.filter((r) => r.metadata.parent_channel_id === FORUM));
    expect(posts.map((p) => [p.title, p.metadata.tags, p.metadata.solved])).toEqual([
      ['Login loop on Safari', ['Solved', 'bug'], true],
      ['Slow search', ['bug'], false],
    ]);
    expect(channel.kind).toBe('forum');
  }, 60_000);

  it('re-syncing an unchanged channel saves nothing and embeds nothing', async () => {
    await settle();
    embeds.reset();
    const before = history.requests.length;
    const limitedBefore = history.rateLimited();
    // Threads are read side by side (each is its own rate-limit bucket), never more than the bound.
    let inFlight = 0;
    let most = 0;
    const counting: DiscordHistory = {
      ...reader,
      readAll: async (id, options) => {
        most = Math.max(most, ++inFlight);
        try {
          return await reader.readAll(id, options);
        } finally {
          inFlight -= 1;
        }
      },
    };
    // One transaction a unit, plus four for the pass: the embedded database runs one at a time, so each one more paces the backfill.
    let transactions = 0;
    const db: Database = { ...suite.db, transaction: (fn) => ((transactions += 1), suite.db.transaction(fn)) };
    const outcome = await syncChannel(db, counting, { workspaceId, syncedChannelId: (await channelRow(HELP))?.id as string, runId: randomUUID(), concurrency: 4 });
    expect(outcome).toMatchObject({ state: 'current', saved: 0, forgotten: 0, unchanged: 2 + ARCHIVED + 2 + 1 });
    expect(transactions).toBe(2 + ARCHIVED + 2 + 1 + 4);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(4);
    await settle();
    expect(embeds.embedded()).toBe(0);
    // Requests made for the pass: the channel, the thread lists, each thread's history, the channel's history, the pins.
    // A global 429 (discord.js's 50/s window and Discord's need not line up) is retried: not counted.
    expect(history.requests.length - before - (history.rateLimited() - limitedBefore)).toBe(1 + 1 + 2 + 1 + (2 + ARCHIVED) + 1 + 1);

    // A source whose indexing failed is saved again, unchanged as it is: that retries it.
    await withService(suite.db, (tx) => tx.query("update artifacts set status = 'failed', error_code = 'EMBED_FAILED' where source_key = $1", [`discord-thread:${GUILD}/${vpnThread}`]));
    const retried = await syncChannel(suite.db, reader, { workspaceId, syncedChannelId: (await channelRow(HELP))?.id as string, runId: randomUUID() });
    expect(retried).toMatchObject({ saved: 1, unchanged: 2 + ARCHIVED + 2 });
    await settle();
    expect((await sources(suite.db, `discord-thread:${GUILD}/${vpnThread}`))[0]?.status).toBe('ready');
  }, 60_000);

  it('between two syncs: an edit changes the answer, a deleted message leaves it, a deleted thread is forgotten', async () => {
    history.editMessage(vpnThread, msgs.vpn1?.id as string, 'The VPN gateway moved to vpn-west.example.org on port 8443.');
    history.deleteMessage(vpnThread, msgs.vpnDeleted?.id as string);
    history.deleteThread(goneThread);
    const freezeBefore = await ask('When do deployment freezes start?');
    expect(freezeBefore.sources).toContain(jump(vpnThread, msgs.vpnDeleted));

    const outcome = await syncChannel(suite.db, reader, { workspaceId, syncedChannelId: (await channelRow(HELP))?.id as string, runId: randomUUID() });
    expect(outcome).toMatchObject({ saved: 1, forgotten: 1 });
    await settle();

    const gateway = await ask('What is the VPN gateway?');
    expect(gateway.answer).toContain('vpn-west.example.org');
    expect(gateway.answer).not.toContain('vpn-east');
    const freeze = await ask('When do deployment freezes start?');
    expect(freeze.sources).not.toContain(jump(vpnThread, msgs.vpnDeleted));
    expect(freeze.answer).not.toContain('18th of December');
    const [printer] = await sources(suite.db, `discord-thread:${GUILD}/${goneThread}`);
    expect(printer?.forgotten).toBe(true);
    expect((await ask('Why does the printer jam?')).sources).not.toContain(goneThread);
  }, 90_000);

  it('/forget on a synced source keeps it forgotten at the next sync, even after it changes', async () => {
    const [day] = await withService(suite.db, (tx) =>
      tx.query<{ id: string }>('select id from artifacts where source_key = $1', [`discord-channel-day:${GUILD}/${HELP}/2026-11-30`]),
    );
    await forgetSource(suite.db, workspaceId, day?.id as string, { audience: EVERYTHING });
    history.editMessage(HELP, msgs.day2?.id as string, 'Reminder: the quarterly all-hands moved to room Kilimanjaro.');
    const outcome = await syncChannel(suite.db, reader, { workspaceId, syncedChannelId: (await channelRow(HELP))?.id as string, runId: randomUUID() });
    expect(outcome.saved).toBe(0);
    await settle();
    const [after] = await sources(suite.db, `discord-channel-day:${GUILD}/${HELP}/2026-11-30`);
    expect(after?.forgotten).toBe(true);
    expect((await ask('Where is the quarterly all-hands?')).answer).not.toContain('Kilimanjaro');
  }, 60_000);

  it('/sync remove then add does not bring back a source that was forgotten and already purged', async () => {
    const key = `discord-channel-day:${GUILD}/${HELP}/2026-11-30`;
    // The retention period is over: the forgotten artifact is gone for good.
    await withService(suite.db, (tx) => tx.query('delete from artifacts where source_key = $1 and forgotten_at is not null', [key]));
    const removed = await removeSyncedChannel(suite.db, workspaceId, HELP);
    expect(removed.removed).toBe(true);
    await addSyncedChannel(suite.db, { workspaceId, guildId: GUILD, channelId: HELP, channelName: 'help', kind: 'text', pinsOnly: false, addedBy: 'test' });
    await settle();
    expect(await channelRow(HELP)).toMatchObject({ state: 'current' });
    expect(await sources(suite.db, key)).toEqual([]);
    expect((await ask('Where is the quarterly all-hands?')).answer).not.toContain('Kilimanjaro');
    // What was not forgotten came back under the new sync as it was.
    expect((await sources(suite.db, `discord-channel-day:${GUILD}/${HELP}/2026-11-29`))[0]?.forgotten).toBe(false);
  }, 120_000);

  it('a backfill killed mid-way resumes with no duplicate and no missing passage', async () => {
    history.createChannel(BIG, { guildId: GUILD, name: 'big' });
    const threadIds: string[] = [];
    for (let i = 0; i < 30; i++) {
      const id = nextId();
      threadIds.push(id);
      history.createThread(id, { parentId: BIG, name: `Big thread ${i}` });
      for (let j = 0; j < 3; j++) say(id, `big${i}-${j}`, 'Ken', `Thread ${i} says fact ${j}: the code word is ${['amber', 'basil', 'cedar'][j]}-${i}.`);
    }
    // Take the queued job as a worker that dies: the pass is aborted after ten threads were read.
    await worker.stop();
    const { channel } = await addSyncedChannel(suite.db, { workspaceId, guildId: GUILD, channelId: BIG, channelName: 'big', kind: 'text', pinsOnly: false, addedBy: 'test' });
    const [job] = await withService(suite.db, (tx) =>
      tx.query<{ id: string }>("select id from jobs where task = 'sync_channel' and status = 'queued' and payload ->> 'synced_channel_id' = $1", [channel.id]),
    );
    const kill = new AbortController();
    let reads = 0;
    const dying: DiscordHistory = {
      ...reader,
      readAll: async (id, options) => {
        if (id !== BIG && ++reads > 10) kill.abort(new Error('kill -9'));
        kill.signal.throwIfAborted();
        return reader.readAll(id, options);
      },
    };
    await expect(syncChannel(suite.db, dying, { workspaceId, syncedChannelId: channel.id, runId: job?.id as string, signal: kill.signal })).rejects.toThrow('kill -9');
    const midway = await channelRow(BIG);
    // Ten reads were let through, but threads are read several at once: those still reading when
    // the pass died were cut off with it, so at most ten are done.
    const done = midway?.checkpoint.done ?? 0;
    expect(midway).toMatchObject({ state: 'backfilling', checkpoint: { run: job?.id, total: 30 } });
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThanOrEqual(10);

    // The requeued job (same id) resumes: the ones done are skipped, the others read.
    const resumed = await syncChannel(suite.db, reader, { workspaceId, syncedChannelId: channel.id, runId: job?.id as string });
    expect(resumed).toMatchObject({ resumed: done, saved: 30 - done, state: 'current' });
    await withService(suite.db, (tx) => tx.query("update jobs set status = 'done', finished_at = now() where id = $1", [job?.id]));
    worker = await startWorker(runtime.services, { logger, pollMs: 50 });
    await settle();

    const rows = await withService(suite.db, (tx) =>
      tx.query<{ source_key: string; passages: number; distinct_passages: number; text: string }>(
        `select a.source_key, count(c.id)::int as passages, count(distinct c.content)::int as distinct_passages, string_agg(c.content, ' ') as text
         from artifacts a join chunks c on c.artifact_id = a.id and c.is_live
         where a.metadata ->> 'parent_channel_id' = $1 group by a.source_key`,
        [BIG],
      ),
    );
    expect(rows.map((r) => r.source_key).sort()).toEqual(threadIds.map((id) => `discord-thread:${GUILD}/${id}`).sort());
    expect(rows.every((r) => r.passages === r.distinct_passages)).toBe(true);
    for (const [i, id] of threadIds.entries()) {
      const text = rows.find((r) => r.source_key.endsWith(id))?.text ?? '';
      for (const word of ['amber', 'basil', 'cedar']) expect(text).toContain(`${word}-${i}.`);
    }
  }, 120_000);

  it('a 403 pauses the channel with its reason in /sync list and /sources; the intent switched off does too', async () => {
    const { channel } = await addSyncedChannel(suite.db, { workspaceId, guildId: GUILD, channelId: SECRET, channelName: 'staff', kind: 'text', pinsOnly: false, addedBy: 'test' });
    await settle();
    const paused = await channelRow(SECRET);
    expect(paused).toMatchObject({ state: 'paused', pauseCode: 'DISCORD_MISSING_ACCESS' });
    expect(paused?.pauseReason).toMatch(/missing access to this channel \(403\).*View Channel and Read Message History/s);

    const list = syncCmd('list');
    await send(list);
    expect(await reply(list)).toContain(`⏸️ <#${SECRET}> — paused: Discord says the bot is missing access to this channel (403)`);
    const shown = interaction({ id: '2', name: 'sources', type: ApplicationCommandType.ChatInput }, admin);
    await send(shown);
    expect(JSON.stringify((await discord.waitForCalls(shown.token, 1, 20_000))[0]?.body)).toContain('paused: Discord says the bot is missing access to this channel (403)');
    // A member who is no admin is not told about a channel they may not be able to read.
    const member = interaction({ id: '2', name: 'sources', type: ApplicationCommandType.ChatInput }, PermissionFlagsBits.SendMessages);
    await send(member);
    expect(JSON.stringify((await discord.waitForCalls(member.token, 1, 20_000))[0]?.body)).not.toContain('paused');
    // A paused channel is not re-synced by the sweeper.
    await withService(suite.db, (tx) => tx.query("update synced_channels set last_synced_at = now() - interval '1 hour'"));
    const swept = await sweep(suite.db, { refreshAfterMs: 86_400_000, syncEveryMs: 15 * 60_000 });
    expect(swept.syncsQueued).toBe(4 - 1);
    await settle();

    history.setForbidden(SECRET, false);
    history.setMessageContentIntent(false);
    await addSyncedChannel(suite.db, { workspaceId, guildId: GUILD, channelId: SECRET, channelName: 'staff', kind: 'text', pinsOnly: false, addedBy: 'test' });
    await settle();
    history.setMessageContentIntent(true);
    expect(await channelRow(SECRET)).toMatchObject({ state: 'paused', pauseCode: 'DISCORD_MESSAGE_CONTENT_OFF' });
    expect((await channelRow(SECRET))?.pauseReason).toContain('Message Content Intent');
    expect(channel.id).toBe((await channelRow(SECRET))?.id);
  }, 120_000);
});
