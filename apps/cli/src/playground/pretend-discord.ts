import {
  createCachedGuildFacts,
  createDiscordApi,
  createDiscordHistory,
  PLAYGROUND,
  PLAYGROUND_CHANNELS,
  pretendGuild,
  PRETEND_SERVER,
  type DiscordHistory,
  type GuildFactsSource,
  type PlaygroundChannel,
} from '@brain/discord';
import type { Logger } from '@brain/observability';
import { fakeMessage, startFakeDiscordGuilds, startFakeDiscordHistory, type FakeDiscordHistory } from '@brain/testkit';

/** The playground's pretend server behind the same REST fakes the tests use, so the real history and audience code runs against it. */
export interface PretendDiscord {
  /** Its threads, channels, forum posts and pins, read as the bot token would read them. */
  history: DiscordHistory;
  /** Its roles and overwrites, read and cached as a real guild's are. */
  guildFacts: GuildFactsSource;
  /** What you type in a channel becomes part of its history, so `/sync` and "Save thread to brain" see it. */
  mirror(channel: PlaygroundChannel): () => void;
  close(): Promise<void>;
}

const BOT_TOKEN = 'playground-pretend-bot-token';

export async function startPretendDiscord(logger: Logger): Promise<PretendDiscord> {
  const fake = await startFakeDiscordHistory();
  const guild = await startFakeDiscordGuilds({ botToken: BOT_TOKEN, guilds: [pretendGuild()] });
  seed(fake);
  return {
    history: createDiscordHistory({ apiBase: fake.apiBase, botToken: BOT_TOKEN }),
    guildFacts: createCachedGuildFacts({ api: createDiscordApi({ apiBase: guild.apiBase, botToken: BOT_TOKEN }), logger: logger.child({ component: 'playground-guild' }) }),
    mirror(channel) {
      return channel.subscribe(({ message }) => {
        if (message.author !== 'user' || message.ephemeral) return;
        const last = fake.channel(message.channelId).messages.at(-1);
        // Ids ascend in a channel; a clock set before the pretend server's history would break that.
        if (last && BigInt(last.id) >= BigInt(message.id)) return;
        fake.addMessages(message.channelId, [fakeMessage({ id: message.id, channelId: message.channelId, author: 'You', authorId: PLAYGROUND.userId, content: message.content })]);
      });
    },
    async close() {
      await Promise.all([fake.close(), guild.close()]);
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
