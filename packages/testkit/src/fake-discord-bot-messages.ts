import { remember, startFakeHttpServer, type FakeHttpServer, type FakeResponse, type RecordedRequest } from './fake-http-server.ts';
import { snowflakeAt } from './fake-discord-message.ts';

/** A message the bot posted with its token (POST /channels/:id/messages), decoded. */
export interface BotPost {
  id: string;
  channelId: string;
  body: Record<string, unknown>;
  authorization: string | undefined;
}

/** A reaction the bot added (PUT /channels/:id/messages/:mid/reactions/:emoji/@me). */
export interface BotReaction {
  channelId: string;
  messageId: string;
  emoji: string;
}

export interface FakeDiscordBotMessages {
  posts: BotPost[];
  reactions: BotReaction[];
  /** Posting in this channel is 403 Missing Permissions (code 50013), as without Send Messages in Threads. */
  forbid(channelId: string): void;
  /** Resolves when `count` posts and reactions together have arrived in `channelId`. */
  waitFor(channelId: string, count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The bot's own writes over REST, on loopback: posting a message in a channel or thread, and
 * adding a reaction. Discord's limits and error shapes: 401 without the bot token, 400 50035 for
 * more than 2,000 characters or 10 embeds or an empty message, 403 50013 where forbidden. Mount
 * it on the fake Discord's server so one API base serves the gateway lookup too.
 */
export async function startFakeDiscordBotMessages(options: {
  server?: FakeHttpServer;
  token: string;
  botId?: string;
  /** Told of each accepted post and reaction (the playground shows them in its pretend server). */
  onWrite?: (write: { kind: 'post'; post: BotPost } | { kind: 'reaction'; reaction: BotReaction }) => void;
  /** Posts and reactions `posts` and `reactions` keep, each (default all; the playground keeps none: onWrite tells it). */
  keepWrites?: number;
}): Promise<FakeDiscordBotMessages> {
  const keep = options.keepWrites ?? Number.POSITIVE_INFINITY;
  const server = options.server ?? (await startFakeHttpServer('Discord'));
  const posts: BotPost[] = [];
  const reactions: BotReaction[] = [];
  const forbidden = new Set<string>();
  const waiters: { channelId: string; count: number; resolve: () => void }[] = [];
  let sequence = 0;
  const countIn = (channelId: string) => posts.filter((p) => p.channelId === channelId).length + reactions.filter((r) => r.channelId === channelId).length;
  const settle = () => {
    for (const w of [...waiters]) {
      if (countIn(w.channelId) >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  const gate = (req: RecordedRequest, channelId: string): FakeResponse | undefined => {
    if (req.headers.authorization !== `Bot ${options.token}`) return { status: 401, body: { message: '401: Unauthorized', code: 0 } };
    if (forbidden.has(channelId)) return { status: 403, body: { message: 'Missing Permissions', code: 50013 } };
    return undefined;
  };
  const invalid = (field: string, message: string): FakeResponse => ({
    status: 400,
    body: { message: 'Invalid Form Body', code: 50035, errors: { [field]: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message }] } } },
  });

  server.on('POST', '/api/v10/channels/:id/messages', (req) => {
    const channelId = req.path.split('/')[4] ?? '';
    const refused = gate(req, channelId);
    if (refused) return refused;
    const body = (req.json ?? {}) as Record<string, unknown>;
    const content = typeof body.content === 'string' ? body.content : '';
    const embeds = Array.isArray(body.embeds) ? body.embeds : [];
    if (content.length > 2000) return invalid('content', 'Must be 2000 or fewer in length.');
    if (embeds.length > 10) return invalid('embeds', 'Must be 10 or fewer in length.');
    if (content === '' && embeds.length === 0 && !Array.isArray(body.components)) {
      return { status: 400, body: { message: 'Cannot send an empty message', code: 50006 } };
    }
    sequence += 1;
    const id = snowflakeAt(Date.now(), sequence % 4096);
    const post = { id, channelId, body, authorization: req.headers.authorization };
    remember(posts, post, keep);
    settle();
    options.onWrite?.({ kind: 'post', post });
    return {
      body: {
        id,
        channel_id: channelId,
        type: 0,
        author: { id: options.botId ?? '900000000000000001', username: 'brain', discriminator: '0', global_name: null, avatar: null, bot: true },
        content,
        embeds,
        components: body.components ?? [],
        attachments: [],
        mentions: [],
        mention_roles: [],
        mention_everyone: false,
        pinned: false,
        tts: false,
        flags: body.flags ?? 0,
        timestamp: new Date().toISOString(),
        edited_timestamp: null,
      },
    };
  });
  server.on('PUT', '/api/v10/channels/:id/messages/:mid/reactions/:emoji/@me', (req) => {
    const [, , , , channelId = '', , messageId = '', , emoji = ''] = req.path.split('/');
    const refused = gate(req, channelId);
    if (refused) return refused;
    const reaction = { channelId, messageId, emoji: decodeURIComponent(emoji) };
    remember(reactions, reaction, keep);
    settle();
    options.onWrite?.({ kind: 'reaction', reaction });
    return { status: 204 };
  });

  return {
    posts,
    reactions,
    forbid: (channelId) => void forbidden.add(channelId),
    waitFor(channelId, count, timeoutMs = 10_000) {
      if (countIn(channelId) >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`fake Discord: ${countIn(channelId)} of ${count} bot writes in ${channelId} after ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ channelId, count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    close: () => (options.server ? Promise.resolve() : server.close()),
  };
}
