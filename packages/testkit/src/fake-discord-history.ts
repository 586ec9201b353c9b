import { startFakeHttpServer, type FakeHttpServer, type FakeResponse, type RecordedRequest } from './fake-http-server.ts';

/** A message as Discord's REST API returns it (the fields a history reader looks at). */
export interface FakeMessage {
  id: string;
  channel_id: string;
  /** 0 DEFAULT, 19 REPLY, 21 THREAD_STARTER_MESSAGE, 18 THREAD_CREATED, 6 CHANNEL_PINNED_MESSAGE, 7 USER_JOIN … */
  type: number;
  author: { id: string; username: string; global_name: string | null; discriminator: string; avatar: null; bot?: boolean };
  content: string;
  timestamp: string;
  edited_timestamp: string | null;
  attachments: { id: string; filename: string; size: number; url: string; proxy_url: string; content_type?: string }[];
  embeds: unknown[];
  components: unknown[];
  mentions: unknown[];
  mention_roles: string[];
  mention_everyone: boolean;
  pinned: boolean;
  tts: boolean;
  flags: number;
  message_reference?: { type?: number; message_id?: string; channel_id?: string; guild_id?: string };
  /** Only on types 19, 21, 23: absent when Discord did not fetch it, null when it was deleted. */
  referenced_message?: FakeMessage | null;
  thread?: unknown;
  webhook_id?: string;
}

export interface FakeChannelState {
  id: string;
  /** Ascending by id, as Discord stores them. */
  messages: FakeMessage[];
  pins: { pinned_at: string; message_id: string }[];
  /** The bot lacks View Channel: every read is 403 Missing Access (code 50001). */
  forbidden: boolean;
}

export interface FakeDiscordHistory {
  apiBase: string;
  /** Creates (or returns) a channel or thread by id. */
  channel(id: string): FakeChannelState;
  /** Appends messages (ids must ascend, as snowflakes do) to a channel or thread. */
  addMessages(channelId: string, messages: FakeMessage[]): void;
  editMessage(channelId: string, messageId: string, content: string): void;
  deleteMessage(channelId: string, messageId: string): void;
  pin(channelId: string, messageId: string, pinnedAt?: string): void;
  /** The MESSAGE_CONTENT intent, as the Developer Portal toggle sets it for REST: off empties content. */
  setMessageContentIntent(on: boolean): void;
  /** The next `count` history requests get a 429 with `retry_after` (seconds), as Discord's per-route limit does. */
  rateLimitNext(count: number, retryAfterSeconds: number): void;
  /** Per-channel bucket for the message routes: `limit` requests per `windowMs` (default 50 per 1,000 ms). */
  setBucket(limit: number, windowMs: number): void;
  /** History requests received (GET messages and pins), 429s included. */
  requests: RecordedRequest[];
  /** How many of them were answered 429. */
  rateLimited(): number;
  close(): Promise<void>;
}

const EPOCH_MS = 1_420_070_400_000n;

/** A snowflake for a moment (and a sequence number within the millisecond), as Discord makes them. */
export function snowflakeAt(ms: number, sequence = 0): string {
  return String(((BigInt(ms) - EPOCH_MS) << 22n) + BigInt(sequence));
}

export function snowflakeTime(id: string): number {
  return Number((BigInt(id) >> 22n) + EPOCH_MS);
}

/** A user message as Discord returns it; `overrides` for replies, attachments, bots, system types. */
export function fakeMessage(
  input: { id: string; channelId: string; author: string; authorId?: string; bot?: boolean; content: string } & Omit<Partial<FakeMessage>, 'id' | 'author' | 'content'>,
): FakeMessage {
  const { id, channelId, author, authorId, bot, content, ...overrides } = input;
  return {
    id,
    channel_id: channelId,
    type: 0,
    author: { id: authorId ?? `4${String(Math.abs(hash(author))).padStart(17, '0')}`, username: author.toLowerCase(), global_name: author, discriminator: '0', avatar: null, ...(bot ? { bot: true } : {}) },
    content,
    timestamp: new Date(snowflakeTime(id)).toISOString(),
    edited_timestamp: null,
    attachments: [],
    embeds: [],
    components: [],
    mentions: [],
    mention_roles: [],
    mention_everyone: false,
    pinned: false,
    tts: false,
    flags: 0,
    ...overrides,
  };
}

/**
 * Discord's message history over REST, on loopback: `GET /channels/:id/messages` with `limit`
 * (1–100, default 50) and one of `before`, `after` or `around` (mutually exclusive), every page
 * newest first as Discord returns it, also with `after`; one message by id; pins, paginated
 * (`/messages/pins`, `before` an ISO `pinned_at`, `limit` 1–50, `{items, has_more}`) and legacy
 * (`/pins`, the first 50). Errors in Discord's shapes: 403 `{code: 50001, message: 'Missing
 * Access'}`, 404 `{code: 10003}` / `{code: 10008}`, 400 `{code: 50035}` for a bad form, 429 with
 * `Retry-After` and `X-RateLimit-*` headers and `{message, retry_after, global}`. With the
 * MESSAGE_CONTENT intent off, `content`, `embeds`, `attachments` and `components` come back empty.
 * Mount it on the fake Discord's server (`{ server }`) so one API base serves everything.
 */
export async function startFakeDiscordHistory(options: { server?: FakeHttpServer } = {}): Promise<FakeDiscordHistory> {
  const server = options.server ?? (await startFakeHttpServer('Discord'));
  const channels = new Map<string, FakeChannelState>();
  const requests: RecordedRequest[] = [];
  let intent = true;
  let forced: { count: number; retryAfter: number } = { count: 0, retryAfter: 0 };
  let bucket = { limit: 50, windowMs: 1000 };
  const windows = new Map<string, { resetAt: number; used: number }>();
  let limited = 0;

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

  /** The rate-limit gate every history route passes: a forced 429, or the channel's bucket. */
  const gate = (req: RecordedRequest, route: string, channelId: string): { reject?: FakeResponse; headers: Record<string, string> } => {
    requests.push(req);
    const key = `${route}:${channelId}`;
    const now = Date.now();
    let window = windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { resetAt: now + bucket.windowMs, used: 0 };
      windows.set(key, window);
    }
    const resetAfter = (window.resetAt - now) / 1000;
    const headers = (remaining: number) => ({
      'x-ratelimit-limit': String(bucket.limit),
      'x-ratelimit-remaining': String(Math.max(0, remaining)),
      'x-ratelimit-reset': (window.resetAt / 1000).toFixed(3),
      'x-ratelimit-reset-after': resetAfter.toFixed(3),
      'x-ratelimit-bucket': `fake-${route}`,
    });
    const tooMany = (retryAfter: number): FakeResponse => {
      limited += 1;
      return {
        status: 429,
        headers: { ...headers(0), 'retry-after': String(Math.ceil(retryAfter)), 'x-ratelimit-scope': 'user' },
        body: { message: 'You are being rate limited.', retry_after: retryAfter, global: false },
      };
    };
    if (forced.count > 0) {
      forced = { ...forced, count: forced.count - 1 };
      return { reject: tooMany(forced.retryAfter), headers: {} };
    }
    if (window.used >= bucket.limit) return { reject: tooMany(resetAfter), headers: {} };
    window.used += 1;
    return { headers: headers(bucket.limit - window.used) };
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
    const all = state.messages;
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

  server.on('GET', '/api/v10/channels/:id/messages', listMessages);
  // Registered before the one-message route, which would otherwise take "pins" for a message id.
  server.on('GET', '/api/v10/channels/:id/messages/pins', pinsPage);
  server.on('GET', '/api/v10/channels/:id/messages/:mid', oneMessage);
  server.on('GET', '/api/v10/channels/:id/pins', legacyPins);

  return {
    apiBase: `${server.url}/api`,
    channel,
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
    setMessageContentIntent: (on) => void (intent = on),
    rateLimitNext: (count, retryAfter) => void (forced = { count, retryAfter }),
    setBucket: (limit, windowMs) => void (bucket = { limit, windowMs }),
    requests,
    rateLimited: () => limited,
    close: () => (options.server ? Promise.resolve() : server.close()),
  };
}

function hash(text: string): number {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) | 0;
  return h;
}
