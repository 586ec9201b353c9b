import { remember, startFakeHttpServer, type FakeHttpServer, type FakeResponse, type RecordedRequest } from './fake-http-server.ts';
import { snowflakeTime, type FakeMessage } from './fake-discord-message.ts';
import { createFakeRateLimits, type RateLimitCounts } from './fake-discord-rate-limits.ts';

/** A forum's tag, as in its `available_tags`. */
export interface FakeForumTag {
  id: string;
  name: string;
  moderated: boolean;
  emoji_id: string | null;
  emoji_name: string | null;
}

/** What GET /channels/:id says about a channel or thread (the fields a sync reads). */
export interface FakeChannelInfo {
  /** 0 GUILD_TEXT, 5 GUILD_ANNOUNCEMENT, 15 GUILD_FORUM, 10/11/12 announcement/public/private thread. */
  type: number;
  guild_id: string;
  name: string;
  parent_id: string | null;
  /** Forums only. */
  available_tags?: FakeForumTag[];
  /** Threads only: tag ids from the parent forum. */
  applied_tags?: string[];
  /** Threads only. */
  thread_metadata?: { archived: boolean; archive_timestamp: string; auto_archive_duration: number; locked: boolean };
  /** A private thread the bot was added to (it can list the archived ones it joined). */
  bot_is_member?: boolean;
  /** Threads only: who started it (a forum post's author). */
  owner_id?: string;
}

export interface FakeChannelState {
  id: string;
  /** Set by `createChannel` / `createThread`; a bare history (`channel(id)`) has none. */
  info?: FakeChannelInfo;
  /** Ascending by id, as Discord stores them. */
  messages: FakeMessage[];
  pins: { pinned_at: string; message_id: string }[];
  /** The bot lacks Read Message History here: Discord lists no message and no pin, without an error. */
  historyHidden?: boolean;
  /** A thread's members (user ids), as `GET /channels/:id/thread-members` lists them. */
  members?: string[];
  /** The bot lacks View Channel: every read is 403 Missing Access (code 50001). */
  forbidden: boolean;
}

export interface FakeDiscordHistory {
  apiBase: string;
  /** Creates (or returns) a channel or thread by id. */
  channel(id: string): FakeChannelState;
  /** A guild text (0), announcement (5) or forum (15) channel, listed by GET /guilds/:id/channels. */
  createChannel(id: string, info: { guildId: string; name: string; type?: number; tags?: FakeForumTag[] }): FakeChannelState;
  /**
   * A thread (or forum post) of `parentId`: active until `archive` is called. A forum post's id is
   * its starter message's, as on Discord.
   */
  createThread(id: string, info: { parentId: string; name: string; private?: boolean; botIsMember?: boolean; tags?: string[]; ownerId?: string }): FakeChannelState;
  archiveThread(id: string, at?: string): void;
  /** Deletes a thread and its messages: every later read of it is 404 Unknown Channel. */
  deleteThread(id: string): void;
  /** Takes View Channel away from the bot (or gives it back): reads are 403, guild lists omit it. */
  setForbidden(channelId: string, forbidden: boolean): void;
  /** Appends messages (ids must ascend, as snowflakes do) to a channel or thread. */
  addMessages(channelId: string, messages: FakeMessage[]): void;
  editMessage(channelId: string, messageId: string, content: string): void;
  deleteMessage(channelId: string, messageId: string): void;
  pin(channelId: string, messageId: string, pinnedAt?: string): void;
  /** Who is in a thread (user ids): adds and removes, as members join and leave. */
  setThreadMembers(threadId: string, userIds: string[]): void;
  /** The GUILD_MEMBERS intent (privileged): off, listing thread members is 403 Missing Access. */
  setGuildMembersIntent(on: boolean): void;
  /** The MESSAGE_CONTENT intent, as the Developer Portal toggle sets it for REST: off empties content. */
  setMessageContentIntent(on: boolean): void;
  /** The next `count` history requests get a 429 with `retry_after` (seconds), as Discord's per-route limit does. */
  rateLimitNext(count: number, retryAfterSeconds: number): void;
  /**
   * Per-channel bucket of every route, or of one (`messages`, `message`, `pins`, `channel`,
   * `archived-threads`, `active-threads`, `guild-channels`, `thread-members`): `limit` requests
   * per `windowMs` (default 50 per 1,000 ms).
   */
  setBucket(limit: number, windowMs: number, route?: string): void;
  /** The bot's global limit across every route (Discord's: 50 a second, the default). */
  setGlobalLimit(perSecond: number): void;
  /** History requests received (messages, pins, channels, thread lists), 429s included; the last `keepRequests` when that is set. */
  requests: RecordedRequest[];
  /** How many of them were answered 429. */
  rateLimited(): number;
  /** The 429s by kind: the global limit, or a route bucket. */
  rateLimitCounts(): RateLimitCounts;
  close(): Promise<void>;
}

/**
 * Discord's message history over REST, on loopback: `GET /channels/:id/messages` with `limit`
 * (1–100, default 50) and one of `before`, `after` or `around` (mutually exclusive), every page
 * newest first as Discord returns it, also with `after`; one message by id; pins, paginated
 * (`/messages/pins`, `before` an ISO `pinned_at`, `limit` 1–50, `{items, has_more}`) and legacy
 * (`/pins`, the first 50). Errors in Discord's shapes: 403 `{code: 50001, message: 'Missing
 * Access'}`, 404 `{code: 10003}` / `{code: 10008}`, 400 `{code: 50035}` for a bad form, 429 with
 * `Retry-After` and `X-RateLimit-*` headers and `{message, retry_after, global}`, the bot's global
 * 50/s among them (fake-discord-rate-limits.ts). With the MESSAGE_CONTENT intent off, `content`,
 * `embeds`, `attachments` and `components` come back empty. A thread's members are listed by
 * `GET /channels/:id/thread-members` (`limit` 1–100, `after` a user id), which needs the
 * GUILD_MEMBERS intent.
 * `GET /users/@me` is the bot; with `botToken` every route answers 401 to any other token.
 * Mount it on the fake Discord's server (`{ server }`) so one API base serves everything.
 */
export async function startFakeDiscordHistory(options: { server?: FakeHttpServer; botToken?: string; keepRequests?: number } = {}): Promise<FakeDiscordHistory> {
  const keep = options.keepRequests ?? Number.POSITIVE_INFINITY;
  const server = options.server ?? (await startFakeHttpServer('Discord', { keepRequests: keep }));
  const channels = new Map<string, FakeChannelState>();
  const requests: RecordedRequest[] = [];
  let intent = true;
  let membersIntent = true;
  const limits = createFakeRateLimits();

  const channel = (id: string): FakeChannelState => {
    let state = channels.get(id);
    if (!state) {
      state = { id, messages: [], pins: [], forbidden: false };
      channels.set(id, state);
    }
    return state;
  };
  const visible = (m: FakeMessage): FakeMessage => {
    const copy = structuredClone(m);
    if (!intent) Object.assign(copy, { content: '', embeds: [], attachments: [], components: [] });
    if (copy.referenced_message && !intent) Object.assign(copy.referenced_message, { content: '', embeds: [], attachments: [], components: [] });
    return copy;
  };
  const error = (status: number, code: number, message: string, extra: object = {}): FakeResponse => ({ status, body: { message, code, ...extra } });
  const invalidForm = (field: string, message: string): FakeResponse =>
    error(400, 50035, 'Invalid Form Body', { errors: { [field]: { _errors: [{ code: 'NUMBER_TYPE_MAX', message }] } } });

  /** The rate-limit gate every history route passes: the bot's global window, then the route's bucket. */
  const gate = (req: RecordedRequest, route: string, channelId: string): { reject?: FakeResponse; headers: Record<string, string> } => {
    remember(requests, req, keep);
    // Discord checks the token before any limit: a wrong one is a 401 whatever the route.
    if (options.botToken !== undefined && req.headers.authorization !== `Bot ${options.botToken}`) return { reject: error(401, 0, '401: Unauthorized'), headers: {} };
    return limits.admit(req, route, channelId);
  };

  const readable = (channelId: string): FakeChannelState | FakeResponse => {
    const state = channels.get(channelId);
    if (!state) return error(404, 10003, 'Unknown Channel');
    if (state.forbidden) return error(403, 50001, 'Missing Access');
    return state;
  };

  const listMessages = (req: RecordedRequest): FakeResponse => {
    const channelId = req.path.split('/')[4] ?? '';
    const { reject, headers } = gate(req, 'messages', channelId);
    if (reject) return reject;
    const state = readable(channelId);
    if (!('messages' in state)) return state;
    const rawLimit = req.query.get('limit');
    const limit = rawLimit === null ? 50 : Number(rawLimit);
    if (!Number.isInteger(limit) || limit < 1) return invalidForm('limit', 'int value should be greater than or equal to 1.');
    if (limit > 100) return invalidForm('limit', 'int value should be less than or equal to 100.');
    const anchors = (['before', 'after', 'around'] as const).filter((k) => req.query.has(k));
    if (anchors.length > 1) return error(400, 50035, 'Invalid Form Body', { errors: { _errors: [{ code: 'MUTUALLY_EXCLUSIVE', message: 'before, after and around are mutually exclusive.' }] } });
    const all = state.historyHidden ? [] : state.messages;
    const id = (k: string) => BigInt(req.query.get(k) ?? '0');
    let page: FakeMessage[];
    if (req.query.has('after')) {
      page = all.filter((m) => BigInt(m.id) > id('after')).slice(0, limit);
    } else if (req.query.has('before')) {
      const older = all.filter((m) => BigInt(m.id) < id('before'));
      page = older.slice(Math.max(0, older.length - limit));
    } else if (req.query.has('around')) {
      const at = all.findIndex((m) => BigInt(m.id) >= id('around'));
      const centre = at < 0 ? all.length : at;
      const from = Math.max(0, centre - Math.floor(limit / 2));
      page = all.slice(from, from + limit);
    } else {
      page = all.slice(Math.max(0, all.length - limit));
    }
    return { headers, body: [...page].reverse().map(visible) };
  };

  const oneMessage = (req: RecordedRequest): FakeResponse => {
    const [, , , , channelId = '', , messageId = ''] = req.path.split('/');
    const { reject, headers } = gate(req, 'message', channelId);
    if (reject) return reject;
    const state = readable(channelId);
    if (!('messages' in state)) return state;
    const found = state.messages.find((m) => m.id === messageId);
    return found ? { headers, body: visible(found) } : error(404, 10008, 'Unknown Message');
  };

  const pinsPage = (req: RecordedRequest): FakeResponse => {
    const channelId = req.path.split('/')[4] ?? '';
    const { reject, headers } = gate(req, 'pins', channelId);
    if (reject) return reject;
    const state = readable(channelId);
    if (!('messages' in state)) return state;
    const limit = req.query.has('limit') ? Number(req.query.get('limit')) : 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 50) return invalidForm('limit', 'int value should be between 1 and 50.');
    const before = req.query.get('before');
    const newestFirst = [...state.pins].sort((a, b) => b.pinned_at.localeCompare(a.pinned_at)).filter((p) => !before || p.pinned_at < before);
    const items = newestFirst.slice(0, limit).flatMap((p) => {
      const message = state.messages.find((m) => m.id === p.message_id);
      return message ? [{ pinned_at: p.pinned_at, message: visible(message) }] : [];
    });
    return { headers, body: { items, has_more: newestFirst.length > limit } };
  };

  const legacyPins = (req: RecordedRequest): FakeResponse => {
    const channelId = req.path.split('/')[4] ?? '';
    const { reject, headers } = gate(req, 'pins', channelId);
    if (reject) return reject;
    const state = readable(channelId);
    if (!('messages' in state)) return state;
    const newestFirst = [...state.pins].sort((a, b) => b.pinned_at.localeCompare(a.pinned_at)).slice(0, 50);
    return { headers, body: newestFirst.flatMap((p) => state.messages.filter((m) => m.id === p.message_id).map(visible)) };
  };

  // last_message_id: the newest message's id (a forum's: its newest post's), as Discord keeps it.
  const info = (state: FakeChannelState): Record<string, unknown> => {
    const newestPost = state.info?.type === 15 ? threadsOf(state.id).map((t) => t.id).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)).at(-1) : undefined;
    return { id: state.id, ...(state.info ?? {}), last_message_id: newestPost ?? state.messages.at(-1)?.id ?? null };
  };
  const threadsOf = (parentId: string) => [...channels.values()].filter((c) => c.info?.parent_id === parentId && c.info.thread_metadata);

  const getChannel = (req: RecordedRequest): FakeResponse => {
    const channelId = req.path.split('/')[4] ?? '';
    const { reject, headers } = gate(req, 'channel', channelId);
    if (reject) return reject;
    const state = readable(channelId);
    if (!('messages' in state)) return state;
    return { headers, body: info(state) };
  };

  // The channels the bot can view: Discord leaves out the others (or redacts them).
  const guildChannels = (req: RecordedRequest): FakeResponse => {
    const guildId = req.path.split('/')[4] ?? '';
    const { reject, headers } = gate(req, 'guild-channels', guildId);
    if (reject) return reject;
    return { headers, body: [...channels.values()].filter((c) => c.info?.guild_id === guildId && !c.info.thread_metadata && !c.forbidden).map(info) };
  };

  // Active threads of the whole guild, id descending, no pagination; those the bot can see.
  const activeThreads = (req: RecordedRequest): FakeResponse => {
    const guildId = req.path.split('/')[4] ?? '';
    const { reject, headers } = gate(req, 'active-threads', guildId);
    if (reject) return reject;
    const threads = [...channels.values()]
      .filter((c) => c.info?.guild_id === guildId && c.info.thread_metadata && !c.info.thread_metadata.archived && !c.forbidden)
      .filter((c) => c.info?.type !== 12 || c.info.bot_is_member)
      .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))
      .map(info);
    return { headers, body: { threads, members: [] } };
  };

  /** Archived threads of a parent: `before` an ISO archive_timestamp (public) or a thread id (joined private). */
  const archivedThreads = (which: 'public' | 'joined-private') => (req: RecordedRequest): FakeResponse => {
    const channelId = req.path.split('/')[4] ?? '';
    const { reject, headers } = gate(req, 'archived-threads', channelId);
    if (reject) return reject;
    const state = readable(channelId);
    if (!('messages' in state)) return state;
    const limit = req.query.has('limit') ? Number(req.query.get('limit')) : 50;
    if (!Number.isInteger(limit) || limit < 2 || limit > 100) return invalidForm('limit', 'int value should be between 2 and 100.');
    const before = req.query.get('before');
    let threads = threadsOf(channelId).filter((t) => t.info?.thread_metadata?.archived && (which === 'public' ? t.info.type !== 12 : t.info.type === 12 && t.info.bot_is_member));
    if (which === 'public') {
      threads = threads.sort((a, b) => (b.info?.thread_metadata?.archive_timestamp ?? '').localeCompare(a.info?.thread_metadata?.archive_timestamp ?? ''));
      if (before) threads = threads.filter((t) => (t.info?.thread_metadata?.archive_timestamp ?? '') < before);
    } else {
      threads = threads.sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
      if (before) threads = threads.filter((t) => BigInt(t.id) < BigInt(before));
    }
    return { headers, body: { threads: threads.slice(0, limit).map(info), members: [], has_more: threads.length > limit } };
  };

  // Sorted by user id, paged with `after`; Discord's thread member object without `member`.
  const threadMembers = (req: RecordedRequest): FakeResponse => {
    const channelId = req.path.split('/')[4] ?? '';
    const { reject, headers } = gate(req, 'thread-members', channelId);
    if (reject) return reject;
    const state = readable(channelId);
    if (!('messages' in state)) return state;
    if (!state.info?.thread_metadata) return error(400, 50024, 'Cannot execute action on this channel type');
    if (!membersIntent) return error(403, 50001, 'Missing Access');
    const limit = req.query.has('limit') ? Number(req.query.get('limit')) : 100;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return invalidForm('limit', 'int value should be between 1 and 100.');
    const after = BigInt(req.query.get('after') ?? '0');
    const ids = [...(state.members ?? [])].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)).filter((id) => BigInt(id) > after);
    const body = ids.slice(0, limit).map((userId) => ({ id: channelId, user_id: userId, join_timestamp: new Date(snowflakeTime(channelId)).toISOString(), flags: 0 }));
    return { headers, body };
  };

  // The bot's own user: what `brain doctor` reads to prove the token.
  const me = (req: RecordedRequest): FakeResponse => {
    const { reject, headers } = gate(req, 'me', '@me');
    if (reject) return reject;
    return { headers, body: { id: '990000000000000001', username: 'company-brain', global_name: null, discriminator: '0', avatar: null, bot: true, flags: 0 } };
  };

  server.on('GET', '/api/v10/users/@me', me);
  server.on('GET', '/api/v10/channels/:id/messages', listMessages);
  server.on('GET', '/api/v10/channels/:id/thread-members', threadMembers);
  server.on('GET', '/api/v10/channels/:id', getChannel);
  server.on('GET', '/api/v10/guilds/:id/channels', guildChannels);
  server.on('GET', '/api/v10/guilds/:id/threads/active', activeThreads);
  server.on('GET', '/api/v10/channels/:id/threads/archived/public', archivedThreads('public'));
  server.on('GET', '/api/v10/channels/:id/users/@me/threads/archived/private', archivedThreads('joined-private'));
  // Registered before the one-message route, which would otherwise take "pins" for a message id.
  server.on('GET', '/api/v10/channels/:id/messages/pins', pinsPage);
  server.on('GET', '/api/v10/channels/:id/messages/:mid', oneMessage);
  server.on('GET', '/api/v10/channels/:id/pins', legacyPins);

  return {
    apiBase: `${server.url}/api`,
    channel,
    createChannel(id, input) {
      const state = channel(id);
      state.info = { type: input.type ?? 0, guild_id: input.guildId, name: input.name, parent_id: null, ...(input.tags ? { available_tags: input.tags } : {}) };
      return state;
    },
    createThread(id, input) {
      const parent = channels.get(input.parentId)?.info;
      if (!parent) throw new Error(`fake Discord: no channel ${input.parentId} (createChannel first)`);
      const state = channel(id);
      state.info = {
        type: input.private ? 12 : parent.type === 5 ? 10 : 11,
        guild_id: parent.guild_id,
        name: input.name,
        parent_id: input.parentId,
        ...(parent.type === 15 ? { applied_tags: input.tags ?? [] } : {}),
        thread_metadata: { archived: false, archive_timestamp: new Date(snowflakeTime(id)).toISOString(), auto_archive_duration: 1440, locked: false },
        ...(input.botIsMember ? { bot_is_member: true } : {}),
        ...(input.ownerId ? { owner_id: input.ownerId } : {}),
      };
      return state;
    },
    archiveThread(id, at = new Date().toISOString()) {
      const meta = channels.get(id)?.info?.thread_metadata;
      if (!meta) throw new Error(`fake Discord: no thread ${id}`);
      Object.assign(meta, { archived: true, archive_timestamp: at });
    },
    deleteThread(id) {
      channels.delete(id);
    },
    setForbidden(channelId, forbidden) {
      channel(channelId).forbidden = forbidden;
    },
    addMessages(channelId, messages) {
      const state = channel(channelId);
      for (const m of messages) {
        const last = state.messages.at(-1);
        if (last && BigInt(m.id) <= BigInt(last.id)) throw new Error(`fake Discord: message ${m.id} is not newer than ${last.id}`);
        state.messages.push(m);
      }
    },
    editMessage(channelId, messageId, content) {
      const found = channel(channelId).messages.find((m) => m.id === messageId);
      if (!found) throw new Error(`fake Discord: no message ${messageId} in ${channelId}`);
      found.content = content;
      found.edited_timestamp = new Date().toISOString();
    },
    deleteMessage(channelId, messageId) {
      const state = channel(channelId);
      state.messages = state.messages.filter((m) => m.id !== messageId);
      state.pins = state.pins.filter((p) => p.message_id !== messageId);
    },
    pin(channelId, messageId, pinnedAt = new Date().toISOString()) {
      const state = channel(channelId);
      const found = state.messages.find((m) => m.id === messageId);
      if (!found) throw new Error(`fake Discord: no message ${messageId} in ${channelId}`);
      found.pinned = true;
      state.pins.push({ pinned_at: pinnedAt, message_id: messageId });
    },
    setThreadMembers(threadId, userIds) {
      channel(threadId).members = [...userIds];
    },
    setGuildMembersIntent: (on) => void (membersIntent = on),
    setMessageContentIntent: (on) => void (intent = on),
    rateLimitNext: (count, retryAfter) => limits.forceNext(count, retryAfter),
    setBucket: (limit, windowMs, route) => limits.setBucket(limit, windowMs, route),
    setGlobalLimit: (perSecond) => limits.setGlobal(perSecond),
    requests,
    rateLimited: () => {
      const c = limits.counts();
      return c.global + c.route;
    },
    rateLimitCounts: () => limits.counts(),
    close: () => (options.server ? Promise.resolve() : server.close()),
  };
}
