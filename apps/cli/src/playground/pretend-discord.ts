import {
  createCachedGuildFacts,
  createDiscordApi,
  createDiscordHistory,
  PLAYGROUND,
  PLAYGROUND_CHANNELS,
  pretendGuild,
  PRETEND_SERVER,
  type DiscordHistory,
  type RefreshableGuildFacts,
  type PlaygroundChannel,
} from '@brain/discord';
import type { Database } from '@brain/db';
import type { Logger } from '@brain/observability';
import {
  fakeMessage,
  fakeThreadCreate,
  startFakeDiscordBotMessages,
  startFakeDiscordGateway,
  startFakeDiscordGuilds,
  startFakeDiscordHistory,
  startFakeHttpServer,
  type FakeDiscordHistory,
} from '@brain/testkit';

/** The playground's pretend server behind the same REST fakes the tests use, so the real history and audience code runs against it. */
export interface PretendDiscord {
  /** Its threads, channels, forum posts and pins, read as the bot token would read them. */
  history: DiscordHistory;
  /** Its roles and overwrites, read, cached and stored in guild_facts as a real guild's are. */
  guildFacts: RefreshableGuildFacts;
  /**
   * The pretend bot's Gateway and REST, testkit's fakes on loopback: the real Gateway code
   * connects with this token, and what it posts or reacts shows in the playground.
   */
  bot: { apiBase: string; token: string; id: string };
  /**
   * What you type in a channel becomes part of its history, so `/sync` and "Save thread to brain"
   * see it, and reaches the bot's Gateway as Discord would send it (a forum post: THREAD_CREATE,
   * then its starter message).
   */
  mirror(channel: PlaygroundChannel): () => void;
  close(): Promise<void>;
}

const BOT_TOKEN = 'playground-pretend-bot-token';

const BOT_ID = PLAYGROUND.applicationId;
const BOT_MENTION = /@(brain|company brain)\b/gi;

/**
 * `db`: where its guild facts are kept, as a real guild's are, so the local workspace's dashboard
 * offers its channels.
 */
export async function startPretendDiscord(logger: Logger, db: Database): Promise<PretendDiscord> {
  // These fakes live as long as `brain start`: they keep no log of the requests they answer.
  const quiet = (name: string) => startFakeHttpServer(name, { keepRequests: 0 });
  const historyServer = await quiet('Discord');
  const guildServer = await quiet('Discord guilds');
  const fake = await startFakeDiscordHistory({ server: historyServer, keepRequests: 0 });
  const guild = await startFakeDiscordGuilds({ server: guildServer, botToken: BOT_TOKEN, guilds: [pretendGuild()] });
  seed(fake);
  let shown: PlaygroundChannel | undefined;
  const botServer = await quiet('Discord');
  await startFakeDiscordBotMessages({
    server: botServer,
    token: BOT_TOKEN,
    botId: BOT_ID,
    keepWrites: 0,
    onWrite: (write) => {
      if (write.kind === 'post') shown?.postBotMessage(write.post.channelId, write.post.body);
      else shown?.react(write.reaction.messageId, write.reaction.emoji);
    },
  });
  const gateway = await startFakeDiscordGateway({
    server: botServer,
    token: BOT_TOKEN,
    bot: { id: BOT_ID, username: 'Company Brain' },
    applicationId: PLAYGROUND.applicationId,
    guilds: [gatewayGuild()],
    // Its sessions' RESUME buffers, as Discord's, hold a bounded number of recent events.
    resumeBuffer: 1000,
  });
  return {
    bot: { apiBase: `${botServer.url}/api`, token: BOT_TOKEN, id: BOT_ID },
    history: createDiscordHistory({ apiBase: fake.apiBase, botToken: BOT_TOKEN }),
    guildFacts: createCachedGuildFacts({ api: createDiscordApi({ apiBase: guild.apiBase, botToken: BOT_TOKEN }), logger: logger.child({ component: 'playground-guild' }), db }),
    mirror(channel) {
      shown = channel;
      const unsubscribe = channel.subscribe(({ message }) => {
        if (message.author !== 'user' || message.ephemeral) return;
        const where = channel.channels().find((c) => c.id === message.channelId);
        const newPost = where?.type === 11 && where.parentId !== null && message.id === where.id;
        if (newPost) fake.createThread(where.id, { parentId: where.parentId as string, name: where.name, ownerId: PLAYGROUND.userId });
        const last = fake.channel(message.channelId).messages.at(-1);
        // Ids ascend in a channel; a clock set before the pretend server's history would break that.
        if (last && BigInt(last.id) >= BigInt(message.id)) return;
        // "@brain" typed in the playground is a mention of the bot, as Discord's autocomplete makes it.
        const content = message.content.replace(BOT_MENTION, `<@${BOT_ID}>`);
        const mentions = content.includes(`<@${BOT_ID}>`) ? [{ id: BOT_ID, username: 'Company Brain', global_name: null, discriminator: '0', avatar: null, bot: true }] : [];
        const wire = fakeMessage({ id: message.id, channelId: message.channelId, author: 'You', authorId: PLAYGROUND.userId, content, mentions });
        fake.addMessages(message.channelId, [wire]);
        if (newPost) gateway.dispatch('THREAD_CREATE', fakeThreadCreate({ id: where.id, guildId: PLAYGROUND.guildId, parentId: where.parentId as string, ownerId: PLAYGROUND.userId, name: where.name }));
        gateway.dispatch('MESSAGE_CREATE', { ...wire, guild_id: PLAYGROUND.guildId, ...(where?.type === 11 ? { channel_type: 11 } : {}) });
      });
      return () => {
        unsubscribe();
        shown = undefined;
      };
    },
    async close() {
      await gateway.close();
      await Promise.all([fake.close(), guild.close(), historyServer.close(), guildServer.close(), botServer.close()]);
    },
  };
}

function seed(fake: FakeDiscordHistory): void {
  for (const c of PLAYGROUND_CHANNELS.filter((x) => x.parentId === null)) {
    fake.createChannel(c.id, {
      guildId: PLAYGROUND.guildId,
      name: c.name,
      type: c.type,
      ...(c.tags ? { tags: c.tags.map((t) => ({ id: t.id, name: t.name, moderated: false, emoji_id: null, emoji_name: null })) } : {}),
    });
  }
  for (const t of PLAYGROUND_CHANNELS.filter((x) => x.parentId !== null)) {
    fake.createThread(t.id, { parentId: t.parentId as string, name: t.name, ...(t.appliedTags ? { tags: t.appliedTags } : {}) });
  }
  const byId = [...PRETEND_SERVER.messages].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  for (const m of byId) {
    const thread = m.startsThread ? PLAYGROUND_CHANNELS.find((c) => c.id === m.startsThread) : undefined;
    fake.addMessages(m.channelId, [
      fakeMessage({
        id: m.id,
        channelId: m.channelId,
        author: m.author,
        content: m.content,
        ...(thread ? { thread: { id: thread.id, type: thread.type, name: thread.name, parent_id: thread.parentId, guild_id: PLAYGROUND.guildId } } : {}),
      }),
    ]);
  }
  for (const m of byId.filter((x) => x.pinned)) fake.pin(m.channelId, m.id, new Date(Date.UTC(2026, 10, 29)).toISOString());
}

/** The pretend server as the Gateway's GUILD_CREATE describes it (its channels; threads arrive as THREAD_CREATE). */
function gatewayGuild(): Record<string, unknown> {
  const g = pretendGuild();
  return {
    id: g.id,
    name: g.name,
    owner_id: g.owner_id,
    unavailable: false,
    member_count: 2,
    roles: g.roles.map((r, position) => ({ ...r, position, color: 0, hoist: false, managed: false, mentionable: true, flags: 0 })),
    channels: g.channels
      .filter((c) => c.parent_id === null)
      .map((c, position) => ({ id: c.id, type: c.type, name: c.name, guild_id: g.id, position, permission_overwrites: c.permission_overwrites, flags: 0, ...(c.type === 15 ? { available_tags: [] } : {}) })),
    threads: [],
    members: [],
    emojis: [],
    stickers: [],
    features: [],
  };
}
