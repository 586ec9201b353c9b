import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Events, type Client, type Message } from 'discord.js';
import type { Database } from '@brain/db';
import { coerceError } from '@brain/errors';
import type { Logger } from '@brain/observability';
import { createRuleRewriter, type QuestionRewriter } from '@brain/answer';
import type { AutoAnswerDeps } from '../autoanswer/answer-new-thread.ts';
import { anyAutoanswerChannel } from '../autoanswer/any-autoanswer-channel.ts';
import { createThreadWriter } from '../autoanswer/thread-writer.ts';
import { createGatewayClient, threadMessageOf } from './gateway-client.ts';
import { createDiscordHistory, type DiscordHistory } from '../history/discord-history.ts';
import { createGatewayEvents } from './gateway-events.ts';
import { acquireGatewayLease, releaseGatewayLease } from './gateway-lease.ts';
import { onThreadMessage } from './on-thread-message.ts';

export interface GatewayRunnerOptions extends Omit<AutoAnswerDeps, 'writer' | 'botUserId'> {
  db: Database;
  logger: Logger;
  botToken: string;
  /** DISCORD_API_BASE (default Discord's). */
  apiBase?: string | undefined;
  /** This process in the lease (default host:pid:random). */
  holder?: string;
  /** The lease's name (default the deployment's one); the playground's pretend bot holds its own. */
  leaseName?: string;
  /** How long a lease lasts without renewal (default 30 s): a dead holder's is taken over after it. */
  leaseMs?: number;
  /** How often the lease is renewed, or a standby tries to take it, and whether any channel wants the Gateway is checked (default a third of leaseMs). */
  tickMs?: number;
  waitGuildTimeoutMs?: number;
  /** Follow-ups' stand-alone rewrite: the chat model's when one is configured (default: the deterministic rule). */
  rewriter?: QuestionRewriter;
  /** Reads threads for solved marks and edits (default: the bot token's, on apiBase). */
  history?: DiscordHistory;
  /** Whether the connection is wanted now (default: a channel of a real server has /autoanswer on). */
  wanted?: () => Promise<boolean>;
}

export interface GatewayRunner {
  /** Connected now: this process holds the lease and its session is up. */
  connected(): boolean;
  /** Resolves when the in-flight auto-answers are done (tests, shutdown). */
  idle(): Promise<void>;
  /** Disconnects and gives the lease up (`release: false` leaves it to lapse, as a crash would). */
  stop(options?: { release?: boolean }): Promise<void>;
}

/**
 * The deployment's one Gateway connection. Every worker runs this; the one that holds the lease
 * in the database connects, renews it each tick and answers new posts, the others stand by and
 * take over when it lapses. It stays disconnected while no channel has /autoanswer on. A holder
 * that cannot renew (the database is gone, or another took over after a pause) disconnects at
 * once, so two sessions never answer together for longer than one tick.
 */
export function startGatewayRunner(options: GatewayRunnerOptions): GatewayRunner {
  const holder = options.holder ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leaseMs = options.leaseMs ?? 30_000;
  const tickMs = options.tickMs ?? Math.floor(leaseMs / 3);
  const log = options.logger.child({ component: 'gateway', holder });
  const inFlight = new Set<Promise<unknown>>();
  let client: Client | undefined;
  let ready = false;
  let stopped = false;
  let ticking: Promise<void> = Promise.resolve();
  const rewriter = options.rewriter ?? createRuleRewriter();
  const history = options.history ?? createDiscordHistory({ apiBase: options.apiBase, botToken: options.botToken });
  const track = (work: Promise<unknown>) => {
    const tracked = work.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };

  const disconnect = async (why: string) => {
    if (!client) return;
    const closing = client;
    client = undefined;
    ready = false;
    log.info({ why }, 'gateway: disconnecting');
    await closing.destroy();
  };

  const connect = async () => {
    const next = createGatewayClient({ botToken: options.botToken, apiBase: options.apiBase, ...(options.waitGuildTimeoutMs !== undefined ? { waitGuildTimeoutMs: options.waitGuildTimeoutMs } : {}) });
    const writer = createThreadWriter(next.rest);
    next.on(Events.ClientReady, (c) => {
      ready = true;
      log.info({ botUserId: c.user.id, guilds: c.guilds.cache.size }, 'gateway: connected');
    });
    next.on(Events.ShardResume, (_shard, replayed) => log.info({ replayed }, 'gateway: resumed'));
    next.on(Events.ShardDisconnect, (event) => log.warn({ code: event.code }, 'gateway: disconnected'));
    next.on(Events.Error, (error) => log.error({ err: error }, 'gateway: client error'));
    next.on(Events.MessageCreate, (message: Message) => {
      const thread = threadMessageOf(message);
      if (!thread) return;
      track(
        onThreadMessage({ ...options, logger: log, writer, rewriter, botUserId: next.user?.id }, thread).catch((error: unknown) =>
          log.error({ err: coerceError(error), threadId: thread.threadId }, 'gateway: auto-answer crashed'),
        ),
      );
    });
    const raw = createGatewayEvents({ db: options.db, logger: log, history, botUserId: () => next.user?.id, workspaceOf: options.workspaceOf });
    next.on(Events.Raw, (packet: { t?: string | null; d?: unknown }) => {
      const work = raw(packet);
      if (work) track(work);
    });
    client = next;
    try {
      await next.login(options.botToken);
    } catch (error) {
      // 4004 (token), 4014 (Message Content intent off) and friends: say which, then retry next tick.
      log.error({ err: coerceError(error) }, 'gateway: could not connect');
      if (client === next) await disconnect('login failed');
    }
  };

  const tick = async () => {
    if (stopped) return;
    try {
      const wanted = await (options.wanted ?? (() => anyAutoanswerChannel(options.db)))();
      if (!wanted) {
        if (client) {
          await disconnect('no channel has /autoanswer on');
          await releaseGatewayLease(options.db, holder, options.leaseName);
        }
        return;
      }
      const held = await acquireGatewayLease(options.db, holder, leaseMs, options.leaseName);
      if (!held) {
        if (client) await disconnect('the lease is held by another process');
        return;
      }
      if (!client && !stopped) await connect();
    } catch (error) {
      log.error({ err: coerceError(error) }, 'gateway: lease check failed');
      if (client) await disconnect('could not renew the lease');
    }
  };

  const run = () => {
    ticking = ticking.then(tick);
    return ticking;
  };
  void run();
  const timer = setInterval(() => void run(), tickMs);
  timer.unref();

  return {
    connected: () => ready && client !== undefined,
    idle: async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async stop(stopOptions = {}) {
      stopped = true;
      clearInterval(timer);
      await ticking;
      await disconnect('stopping');
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      if (stopOptions.release !== false) await releaseGatewayLease(options.db, holder, options.leaseName).catch(() => undefined);
    },
  };
}
