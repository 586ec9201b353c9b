import { ApplicationCommandOptionType, ApplicationCommandType, ChannelType, InteractionType, PermissionFlagsBits } from 'discord-api-types/v10';
import { loadConfig } from '@brain/config';
import { withService, type Database } from '@brain/db';
import { generateDevKeyPair, startGatewayRunner, type AskFunction, type EntitlementCheck, type GatewayRunner } from '@brain/discord';
import { createLocalEmbedder } from '@brain/embeddings';
import { saveSource } from '@brain/ingest';
import { createLogger, type Logger } from '@brain/observability';
import {
  buttonPress,
  discordInteraction,
  fakeMessage,
  fakeThreadCreate,
  snowflakeAt,
  startFakeDiscord,
  startFakeDiscordBotMessages,
  startFakeDiscordGateway,
  startFakeHttpServer,
  waitUntil,
  type DiscordWebhookCall,
  type FakeDiscord,
  type FakeDiscordBotMessages,
  type FakeDiscordGateway,
  type FakeHttpServer,
} from '@brain/testkit';
import { buildApp, type WebApp } from '@brain/web';
import { startWorker, type WorkerHandle } from '@brain/worker';
import { wireDiscord, type DiscordWiring } from '../src/discord-wiring.ts';
import { buildAnswering } from '../src/services/answering.ts';
import { buildIngestRuntime, type IngestRuntime } from '../src/services/ingest.ts';

// The auto-answer suites' shared world: the web app (for /autoanswer and the buttons), discord.js
// connected to testkit's fake Gateway (its URL from the fake REST's GET /gateway/bot), the bot's
// REST writes recorded, and the real ask pipeline over one saved and indexed source. Each suite
// builds one of these in beforeAll and reuses it across its cases.
export const APP_ID = '950000000000000001';
export const GUILD = '950000000000000002';
export const FORUM = '950000000000000003';
export const OTHER = '950000000000000004';
export const STAFF_ROLE = '950000000000000005';
export const BOT_ID = '950000000000000009';
export const ASKER = '350000000000000001';
// Not "bot…": discord.js strips a leading Bot/Bearer prefix from the token it is given.
export const BOT_TOKEN = 'gateway-test-token';
export const RATE_LIMIT_TEXT =
  '# Rate limits\n\nThe API rate limit is 120 requests per minute per token. Raise it with the `rate_limit_per_minute` setting.';

export interface RunnerOverrides {
  leaseMs?: number;
  logger?: Logger;
  ask?: AskFunction;
  checkEntitlement?: EntitlementCheck;
}

export interface AutoanswerHarness {
  server: FakeHttpServer;
  discord: FakeDiscord;
  gateway: FakeDiscordGateway;
  bot: FakeDiscordBotMessages;
  app: WebApp;
  db: Database;
  workspaceId: string;
  ask: AskFunction;
  /** A Gateway runner on this world (stopped by `stopRunners`, which each suite calls in afterEach). */
  runner(holder: string, overrides?: RunnerOverrides): GatewayRunner;
  stopRunners(): Promise<void>;
  /** /autoanswer <sub> through the signed interactions endpoint; the reply's text. */
  command(sub: 'on' | 'off' | 'list', extra?: Record<string, unknown>[], permissions?: bigint, channelId?: string): Promise<string>;
  /** A press of `customId` in `channelId` by `user`: the immediate response, and the token's later calls. */
  press(customId: string, options?: { channelId?: string; user?: { id: string; username: string } }): Promise<{ response: { type: number; data?: Record<string, unknown> }; token: string }>;
  callsFor(token: string, count: number): Promise<DiscordWebhookCall[]>;
  /** A new forum post as Discord announces it: THREAD_CREATE, then its starter message (same id). */
  post(parent: string, title: string, content: string, author?: { id: string; bot?: boolean }, id?: string): string;
  /** The id the next post or reply would get, to arrange a fake's answer for it beforehand. */
  nextId(): string;
  dispatchStarter(id: string, content: string, author?: { id: string; bot?: boolean }): void;
  /** A later message in a thread (not its starter). */
  reply(threadId: string, content: string, author?: { id: string; bot?: boolean }): string;
  outcomes(threadId: string): Promise<AutoAnswerRow[]>;
  /** Waits for the thread's auto-answer to end (any outcome but pending). */
  finished(threadId: string): Promise<AutoAnswerRow>;
  close(): Promise<void>;
}

export type AutoAnswerRow = {
  id: string;
  outcome: string;
  reason: string | null;
  surface: string | null;
  grounded: boolean | null;
  answer?: string | null;
  reply_message_id: string | null;
};

const logger = createLogger({ level: 'silent' });
let sequence = 0;
/** A snowflake of now, unique in this process: a new thread or message id. */
const nextId = () => snowflakeAt(Date.now(), (sequence += 1) % 4096);

export async function startAutoanswerHarness(db: Database, slug: string): Promise<AutoanswerHarness> {
  const keys = generateDevKeyPair();
  const server = await startFakeHttpServer('Discord');
  const discord = await startFakeDiscord({ server });
  const bot = await startFakeDiscordBotMessages({ server, token: BOT_TOKEN, botId: BOT_ID });
  const gateway = await startFakeDiscordGateway({
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
        roles: [
          { id: GUILD, name: '@everyone', permissions: String(PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ReadMessageHistory | PermissionFlagsBits.SendMessages), position: 0, color: 0, hoist: false, managed: false, mentionable: false, flags: 0 },
          { id: STAFF_ROLE, name: 'staff', permissions: '0', position: 1, color: 0, hoist: false, managed: false, mentionable: true, flags: 0 },
        ],
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
  const [ws] = await withService(db, (tx) =>
    tx.query<{ id: string }>("insert into workspaces (slug, guild_id, claim_email, claimed_at) values ($1, $2, 'owner@example.com', now()) returning id", [slug, GUILD]),
  );
  const workspaceId = ws?.id as string;
  const config = loadConfig(
    { DISCORD_PUBLIC_KEY: keys.publicKeyHex, DISCORD_APPLICATION_ID: APP_ID, DISCORD_BOT_TOKEN: BOT_TOKEN, DISCORD_API_BASE: discord.apiBase, BRAIN_PLAYGROUND: 'off' },
    { cwd: process.cwd() },
  );
  const embedder = createLocalEmbedder();
  const runtime: IngestRuntime = buildIngestRuntime(config, db, logger, embedder);
  const worker: WorkerHandle = await startWorker(runtime.services, { logger, pollMs: 50 });
  await saveSource(db, { workspaceId, input: { kind: 'text', title: 'Rate limits', text: RATE_LIMIT_TEXT }, savedBy: 'test' });
  await waitUntil(
    async () => {
      const [row] = await withService(db, (tx) => tx.query<{ n: number }>("select count(*)::int as n from jobs where status in ('queued', 'running')"));
      return row?.n === 0;
    },
    { timeoutMs: 30_000, what: 'the source to be indexed' },
  );
  const ask = buildAnswering(config, db, logger, embedder);
  const wiring: DiscordWiring = await wireDiscord({ config, db, logger, localWorkspaceId: '00000000-0000-0000-0000-000000000000', ask });
  const app = await buildApp({ config, db, logger, discord: wiring.surface });
  const runners: GatewayRunner[] = [];

  async function signed(body: unknown): Promise<{ type: number; data?: Record<string, unknown> }> {
    const raw = JSON.stringify(body);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const res = await app.inject({
      method: 'POST',
      url: '/interactions',
      headers: { 'content-type': 'application/json', 'x-signature-ed25519': keys.sign(timestamp, raw), 'x-signature-timestamp': timestamp },
      payload: raw,
    });
    if (res.statusCode !== 200) throw new Error(`/interactions answered ${res.statusCode}: ${res.body}`);
    return JSON.parse(res.body) as { type: number; data?: Record<string, unknown> };
  }

  const starter = (id: string, content: string, author: { id: string; bot?: boolean } = { id: ASKER }) =>
    gateway.dispatch('MESSAGE_CREATE', {
      ...fakeMessage({ id, channelId: id, author: author.bot ? 'Helper bot' : 'Ada', authorId: author.id, bot: author.bot ?? false, content }),
      guild_id: GUILD,
      channel_type: ChannelType.PublicThread,
    });

  const outcomes = (threadId: string) =>
    withService(db, (tx) =>
      tx.query<AutoAnswerRow>(
        `select a.id, a.outcome, a.reason, a.reply_message_id, q.surface, q.grounded, q.answer from auto_answers a left join queries q on q.id = a.query_id where a.thread_id = $1`,
        [threadId],
      ),
    );

  return {
    server,
    discord,
    gateway,
    bot,
    app,
    db,
    workspaceId,
    ask,
    runner(holder, overrides = {}) {
      const r = startGatewayRunner({
        db,
        logger: overrides.logger ?? logger,
        botToken: BOT_TOKEN,
        apiBase: discord.apiBase,
        holder,
        leaseMs: overrides.leaseMs ?? 1_500,
        tickMs: 200,
        ask: overrides.ask ?? ask,
        checkEntitlement: overrides.checkEntitlement ?? (async () => ({ allowed: true })),
      });
      runners.push(r);
      return r;
    },
    async stopRunners() {
      for (const r of runners.splice(0)) await r.stop();
    },
    async command(sub, extra = [], permissions = PermissionFlagsBits.ManageGuild, channelId = FORUM) {
      const body = discordInteraction(
        { applicationId: APP_ID, guildId: GUILD, channelId: FORUM, channel: { id: FORUM, type: ChannelType.GuildForum }, permissions: String(permissions), user: { id: ASKER, username: 'ada', global_name: 'Ada', discriminator: '0', avatar: null } },
        {
          type: InteractionType.ApplicationCommand,
          data: {
            id: '7',
            name: 'autoanswer',
            type: ApplicationCommandType.ChatInput,
            options: [{ name: sub, type: ApplicationCommandOptionType.Subcommand, options: extra }],
            resolved: { channels: { [channelId]: { id: channelId, name: channelId === FORUM ? 'help' : 'ideas', type: ChannelType.GuildForum, permissions: '0' } } },
          },
        },
      );
      const ack = await signed(body);
      const content = ack.data?.content;
      if (typeof content === 'string' && content) return content;
      const [edit] = await discord.waitForCalls(body.token, 1, 20_000);
      return String(edit?.body.content);
    },
    async press(customId, options = {}) {
      const channelId = options.channelId ?? FORUM;
      const body = buttonPress(
        { applicationId: APP_ID, guildId: GUILD, channelId, channel: { id: channelId, type: ChannelType.PublicThread, parent_id: FORUM }, user: options.user ?? { id: ASKER, username: 'ada' } },
        customId,
      );
      return { response: await signed(body), token: body.token };
    },
    callsFor: (token, count) => discord.waitForCalls(token, count, 20_000),
    nextId,
    post(parent, title, content, author = { id: ASKER }, id = nextId()) {
      gateway.dispatch('THREAD_CREATE', fakeThreadCreate({ id, guildId: GUILD, parentId: parent, ownerId: author.id, name: title }));
      starter(id, content, author);
      return id;
    },
    dispatchStarter: starter,
    reply(threadId, content, author = { id: ASKER }) {
      const id = nextId();
      gateway.dispatch('MESSAGE_CREATE', {
        ...fakeMessage({ id, channelId: threadId, author: author.bot ? 'Helper bot' : 'Ada', authorId: author.id, bot: author.bot ?? false, content }),
        guild_id: GUILD,
        channel_type: ChannelType.PublicThread,
      });
      return id;
    },
    outcomes,
    async finished(threadId) {
      return waitUntil(async () => (await outcomes(threadId)).find((o) => o.outcome !== 'pending'), { timeoutMs: 20_000, what: `the auto-answer of ${threadId}` });
    },
    async close() {
      for (const r of runners.splice(0)) await r.stop();
      await app.close();
      await wiring.surface?.close(5_000);
      await wiring.close();
      await worker.stop();
      await runtime.close();
      await gateway.close();
      await server.close();
    },
  };
}
