import { DiscordAPIError, RateLimitError, REST } from '@discordjs/rest';
import {
  Routes,
  type APIChannel,
  type APIMessage,
  type APIThreadChannel,
  type APIThreadMember,
  type APIUser,
  type RESTGetAPIChannelMessagesPinsResult,
  type RESTGetAPIChannelThreadsArchivedQuery,
  type RESTGetAPIGuildThreadsResult,
  type RESTGetAPIChannelUsersThreadsArchivedResult,
} from 'discord-api-types/v10';
import { AppError } from '@brain/errors';
import { DEFAULT_DISCORD_API_BASE } from '../rest/discord-api.ts';

/** Discord's largest page of Get Channel Messages. */
export const MESSAGES_PER_PAGE = 100;
/** A thread longer than this is not read whole by one command (a /sync backfill can). */
export const MAX_THREAD_MESSAGES = 10_000;

export interface DiscordHistoryOptions {
  apiBase?: string | undefined;
  /** DISCORD_BOT_TOKEN: reading history is the one thing the bot's own identity is needed for. */
  botToken: string;
  /**
   * The longest single rate-limit wait accepted (default 30 s). discord.js's REST waits out every
   * 429 and bucket reset by itself, without limit; a longer wait than this fails with a reason.
   */
  maxRateLimitWaitMs?: number;
  timeoutMs?: number;
}

export interface ReadOptions {
  signal?: AbortSignal | undefined;
  /** After each page, with the messages read so far. */
  onPage?: ((read: number) => void | Promise<void>) | undefined;
  maxMessages?: number;
  /** Start after this message id (exclusive; default from the channel's start). */
  after?: string | undefined;
  /** Stop before this id (exclusive): with `after`, one span of time, e.g. a UTC day. */
  until?: string | undefined;
}

/** Discord's largest page of pins. */
export const PINS_PER_PAGE = 50;
/** List Thread Members pages: 1–100, paged by user id. */
export const THREAD_MEMBERS_PER_PAGE = 100;
/** Archived-thread pages: the range is undocumented; 100 is what clients use (see the research note). */
export const THREADS_PER_PAGE = 100;

/** Reads channel and thread history with the bot token, through discord.js's rate-limit buckets. */
export interface DiscordHistory {
  /** Every message of a channel or thread from its start, oldest first. */
  readAll(channelId: string, options?: ReadOptions): Promise<APIMessage[]>;
  /** The channel or thread itself (type, name, guild, parent, a forum's tags). */
  channel(channelId: string, options?: { signal?: AbortSignal | undefined }): Promise<APIChannel>;
  /**
   * Every thread of a channel (forum posts included): the guild's active ones under it, its
   * archived public ones, and the archived private ones the bot joined (others it cannot list
   * without Manage Threads). Each thread once.
   */
  threads(guildId: string, channelId: string, options?: { signal?: AbortSignal | undefined }): Promise<APIThreadChannel[]>;
  /** The channel's pinned messages, newest pin first. */
  pins(channelId: string, options?: { signal?: AbortSignal | undefined }): Promise<APIMessage[]>;
  /** The bot's own user (GET /users/@me): proves the token. */
  me(options?: { signal?: AbortSignal | undefined }): Promise<APIUser>;
  /** The newest message of a channel or thread, if any (one request). */
  latest(channelId: string, options?: { signal?: AbortSignal | undefined }): Promise<APIMessage | undefined>;
  /** A thread's members' user ids (GET /channels/{id}/thread-members, 100 a page by user id). */
  threadMembers(threadId: string, options?: { signal?: AbortSignal | undefined }): Promise<string[]>;
}

export function createDiscordHistory(options: DiscordHistoryOptions): DiscordHistory {
  const maxWaitMs = options.maxRateLimitWaitMs ?? 30_000;
  const rest = new REST({
    api: (options.apiBase ?? DEFAULT_DISCORD_API_BASE).replace(/\/+$/, ''),
    version: '10',
    timeout: options.timeoutMs ?? 15_000,
    retries: 2,
    // Unlike the interaction webhooks, history has no token window to protect: let REST wait out
    // 429s and exhausted buckets (its per-route queues and the 50/s global limit), up to a bound.
    rejectOnRateLimit: (data) => data.retryAfter > maxWaitMs,
  }).setToken(options.botToken);

  return {
    async readAll(channelId, readOptions = {}) {
      const limit = readOptions.maxMessages ?? MAX_THREAD_MESSAGES;
      const all: APIMessage[] = [];
      const until = readOptions.until;
      // Pages come newest first even when walking forward: the next cursor is the page's highest id.
      let after = readOptions.after ?? '0';
      for (;;) {
        const query = { after, limit: MESSAGES_PER_PAGE };
        const page = (await get(rest, Routes.channelMessages(channelId), query, readOptions.signal, maxWaitMs)) as APIMessage[];
        if (page.length === 0) break;
        const ascending = [...page].sort((a, b) => compareIds(a.id, b.id));
        const kept = until === undefined ? ascending : ascending.filter((m) => compareIds(m.id, until) < 0);
        all.push(...kept);
        after = (ascending.at(-1) as APIMessage).id;
        await readOptions.onPage?.(all.length);
        if (page.length < MESSAGES_PER_PAGE || kept.length < ascending.length) break;
        if (all.length >= limit) {
          throw new AppError({
            code: 'DISCORD_THREAD_TOO_LONG',
            message: `Channel ${channelId} has more than ${limit} messages.`,
            userMessage: `That thread has more than ${limit.toLocaleString('en-US')} messages, more than I read at once.`,
            nextStep: 'Save the messages that matter with “Save to brain”.',
            httpStatus: 400,
          });
        }
      }
      return all;
    },

    async channel(channelId, readOptions = {}) {
      return (await get(rest, Routes.channel(channelId), {}, readOptions.signal, maxWaitMs)) as APIChannel;
    },

    async threads(guildId, channelId, readOptions = {}) {
      const found = new Map<string, APIThreadChannel>();
      const active = (await get(rest, Routes.guildActiveThreads(guildId), {}, readOptions.signal, maxWaitMs)) as RESTGetAPIGuildThreadsResult;
      for (const t of active.threads as APIThreadChannel[]) if (t.parent_id === channelId) found.set(t.id, t);
      // Public archived pages go by archive time; the joined private ones by thread id.
      let before: string | undefined;
      for (;;) {
        const query: RESTGetAPIChannelThreadsArchivedQuery = { limit: THREADS_PER_PAGE, ...(before ? { before } : {}) };
        const page = (await get(rest, Routes.channelThreads(channelId, 'public'), query, readOptions.signal, maxWaitMs)) as RESTGetAPIChannelUsersThreadsArchivedResult;
        for (const t of page.threads as APIThreadChannel[]) found.set(t.id, t);
        const last = page.threads.at(-1) as APIThreadChannel | undefined;
        if (!page.has_more || !last?.thread_metadata) break;
        before = last.thread_metadata.archive_timestamp;
      }
      before = undefined;
      for (;;) {
        const query: RESTGetAPIChannelThreadsArchivedQuery = { limit: THREADS_PER_PAGE, ...(before ? { before } : {}) };
        const page = (await get(rest, Routes.channelJoinedArchivedThreads(channelId), query, readOptions.signal, maxWaitMs)) as RESTGetAPIChannelUsersThreadsArchivedResult;
        for (const t of page.threads as APIThreadChannel[]) found.set(t.id, t);
        const last = page.threads.at(-1);
        if (!page.has_more || !last) break;
        before = last.id;
      }
      return [...found.values()].sort((a, b) => compareIds(a.id, b.id));
    },

    async me(readOptions = {}) {
      return (await get(rest, '/users/@me', {}, readOptions.signal, maxWaitMs)) as APIUser;
    },

    async latest(channelId, readOptions = {}) {
      const [newest] = (await get(rest, Routes.channelMessages(channelId), { limit: 1 }, readOptions.signal, maxWaitMs)) as APIMessage[];
      return newest;
    },

    async threadMembers(threadId, readOptions = {}) {
      const ids: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = (await get(rest, Routes.threadMembers(threadId), { limit: THREAD_MEMBERS_PER_PAGE, ...(after ? { after } : {}) }, readOptions.signal, maxWaitMs)) as APIThreadMember[];
        for (const m of page) if (m.user_id) ids.push(m.user_id);
        const last = page.at(-1)?.user_id;
        if (page.length < THREAD_MEMBERS_PER_PAGE || !last) break;
        after = last;
      }
      return ids;
    },

    async pins(channelId, readOptions = {}) {
      const all: APIMessage[] = [];
      let before: string | undefined;
      for (;;) {
        const page = (await get(rest, Routes.channelMessagesPins(channelId), { limit: PINS_PER_PAGE, ...(before ? { before } : {}) }, readOptions.signal, maxWaitMs)) as RESTGetAPIChannelMessagesPinsResult;
        all.push(...page.items.map((item) => item.message));
        const last = page.items.at(-1);
        if (!page.has_more || !last) break;
        before = last.pinned_at;
      }
      return all;
    },
  };
}

async function get(rest: REST, route: `/${string}`, query: object, signal: AbortSignal | undefined, maxWaitMs: number): Promise<unknown> {
  // One signal serves a whole sync pass (thousands of requests), and REST leaves a listener on
  // the signal it is given: each request gets its own, linked to the pass's and unlinked after.
  const local = signal ? new AbortController() : undefined;
  const forward = () => local?.abort(signal?.reason);
  if (signal?.aborted) forward();
  signal?.addEventListener('abort', forward, { once: true });
  try {
    const params = Object.entries(query as Record<string, string | number | boolean | undefined>).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]]));
    return await rest.get(route, { ...(params.length > 0 ? { query: new URLSearchParams(params) } : {}), ...(local ? { signal: local.signal } : {}) });
  } catch (error) {
    throw historyError(error, maxWaitMs);
  } finally {
    signal?.removeEventListener('abort', forward);
  }
}

/** Discord's refusals, as the person who asked should read them. */
export function historyError(error: unknown, maxWaitMs: number): unknown {
  if (error instanceof RateLimitError) {
    return new AppError({
      code: 'DISCORD_RATE_LIMITED',
      message: `Discord asked to wait ${Math.round(error.retryAfter)} ms on ${error.route} (scope ${error.scope}), more than the ${maxWaitMs} ms allowed.`,
      userMessage: `Discord is rate-limiting the bot for the next ${Math.ceil(error.retryAfter / 1000)} seconds.`,
      nextStep: 'Try again in a few minutes.',
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof DiscordAPIError) {
    if (error.status === 403 || error.code === 50001 || error.code === 50013) {
      return new AppError({
        code: 'DISCORD_MISSING_ACCESS',
        message: `Discord refused to show the history: ${error.status} ${error.code} ${error.message}`,
        userMessage: 'I can’t read that thread: Discord says the bot is missing access to it.',
        nextStep: 'Give the bot’s role View Channel and Read Message History on the channel (for a private thread, add the bot to the thread), then try again.',
        httpStatus: 403,
        cause: error,
      });
    }
    if (error.status === 401) {
      return new AppError({
        code: 'DISCORD_BOT_TOKEN_INVALID',
        message: `Discord rejected the bot token: ${error.message}`,
        userMessage: 'Discord rejected this bot’s token, so I can’t read any history.',
        nextStep: 'Ask the operator to set a current DISCORD_BOT_TOKEN (Developer Portal → Bot → Reset Token) and restart the brain.',
        cause: error,
      });
    }
    if (error.code === 10003) {
      return new AppError({
        code: 'DISCORD_CHANNEL_NOT_FOUND',
        message: `Unknown channel: ${error.message}`,
        userMessage: 'Discord says that thread no longer exists.',
        nextStep: 'Check that the thread was not deleted, then try again.',
        httpStatus: 404,
        cause: error,
      });
    }
  }
  return error;
}

function compareIds(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
