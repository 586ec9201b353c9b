import type { AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { remember, startFakeHttpServer, type FakeHttpServer, type FakeResponse, type RecordedRequest } from './fake-http-server.ts';

/** Gateway opcodes (Discord's "Opcodes and Status Codes" page). */
export const GatewayOp = { Dispatch: 0, Heartbeat: 1, Identify: 2, PresenceUpdate: 3, Resume: 6, Reconnect: 7, InvalidSession: 9, Hello: 10, HeartbeatAck: 11 } as const;

/** The close codes this fake sends, as Discord does. */
export const GatewayClose = {
  UnknownError: 4000,
  UnknownOpcode: 4001,
  DecodeError: 4002,
  NotAuthenticated: 4003,
  AuthenticationFailed: 4004,
  AlreadyAuthenticated: 4005,
  InvalidSeq: 4007,
  InvalidIntents: 4013,
  DisallowedIntents: 4014,
} as const;

/** GUILD_MEMBERS, GUILD_PRESENCES and MESSAGE_CONTENT: each needs its Developer Portal switch. */
export const PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15);
const ALL_INTENTS = (1 << 26) - 1;

export interface GatewayIdentify {
  token: string;
  intents: number;
  shard: unknown;
  properties: unknown;
  at: number;
}

export interface GatewayResume {
  token: string;
  sessionId: string;
  seq: number | null;
  at: number;
}

interface Session {
  id: string;
  intents: number;
  /** Every dispatch of the session, for RESUME's replay: [s, t, d]. */
  log: { s: number; t: string; d: unknown }[];
  seq: number;
  socket: WebSocket | undefined;
  invalid: boolean;
}

export interface FakeDiscordGatewayOptions {
  /** Mount `GET /gateway/bot` on this server (the fake Discord's, so one API base serves all). */
  server?: FakeHttpServer;
  /** The bot token IDENTIFY and RESUME must carry; anything else is closed with 4004. */
  token: string;
  /** Privileged intents the application has switched on (default all three); asking for another closes with 4014. */
  privilegedIntents?: number;
  /** HELLO's heartbeat_interval (Discord sends about 41,250 ms; tests want less). */
  heartbeatIntervalMs?: number;
  /** session_start_limit.total: IDENTIFYs allowed per day; 0 left makes `GET /gateway/bot` report none remaining. */
  identifyLimit?: number;
  /** The bot user READY describes. */
  bot?: { id: string; username: string };
  applicationId?: string;
  /** Guilds sent as GUILD_CREATE after READY (READY lists them as unavailable first). */
  guilds?: Record<string, unknown>[];
  /**
   * Dispatches a session keeps for RESUME, the latest (default all). Discord's buffer is finite: a
   * RESUME from before its oldest event gets op 9 (d false). The playground, which runs as long as
   * `brain start`, keeps a bounded one.
   */
  resumeBuffer?: number;
}

export interface FakeDiscordGateway {
  /** ws://127.0.0.1:PORT — what `GET /gateway/bot` returns. */
  url: string;
  /** Every IDENTIFY and RESUME received (valid or not), in order. */
  identifies: GatewayIdentify[];
  resumes: GatewayResume[];
  /** The request path (with query) of every WebSocket connection, e.g. `/?v=10&encoding=json`. */
  connections: string[];
  /** Heartbeats received, and how many were acknowledged. */
  heartbeats: { received: number; acked: number };
  /** Sessions with an open, identified socket right now. */
  liveSessions(): number;
  /**
   * Sends a dispatch (MESSAGE_CREATE, THREAD_CREATE…) with the session's next sequence number to
   * every session, connected or not: a session that is away gets it when it RESUMEs.
   */
  dispatch(t: string, d: unknown): void;
  /** Closes every socket with `code` (default 4000, resumable), as a network drop or Discord's restart. */
  drop(code?: number): void;
  /** Sends op 7 RECONNECT: the client should reconnect and RESUME. */
  reconnect(): void;
  /** Sends op 9 INVALID_SESSION (`resumable` is its `d`); a non-resumable one forgets the session. */
  invalidateSession(resumable: boolean): void;
  /** Stops answering heartbeats (a zombie connection). */
  setAcking(on: boolean): void;
  /** Resolves when `count` sessions have reached READY or RESUMED in total. */
  waitForSessions(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Discord's Gateway on loopback, as discord.js's @discordjs/ws speaks to it: HELLO, IDENTIFY
 * (token and intents checked: 4004, 4013, 4014), READY with session_id and resume_gateway_url,
 * heartbeats and their ACKs, RESUME replaying what the session missed after the client's `seq`
 * (then RESUMED), INVALID_SESSION, RECONNECT, and dispatches with rising sequence numbers. Plus
 * `GET /api/v10/gateway/bot` with `session_start_limit`, counted down by each IDENTIFY.
 * JSON encoding only, no compression (discord.js turns zlib-stream on only with zlib-sync).
 */
export async function startFakeDiscordGateway(options: FakeDiscordGatewayOptions): Promise<FakeDiscordGateway> {
  const server = options.server ?? (await startFakeHttpServer('Discord'));
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  const allowedPrivileged = options.privilegedIntents ?? PRIVILEGED_INTENTS;
  const interval = options.heartbeatIntervalMs ?? 41_250;
  const bot = options.bot ?? { id: '900000000000000001', username: 'brain' };
  const guilds = options.guilds ?? [];
  const identifies: GatewayIdentify[] = [];
  const resumes: GatewayResume[] = [];
  const connections: string[] = [];
  const heartbeats = { received: 0, acked: 0 };
  const sessions = new Map<string, Session>();
  const sockets = new Set<WebSocket>();
  const sessionWaiters: { count: number; resolve: () => void }[] = [];
  let started = 0;
  let acking = true;
  let remaining = options.identifyLimit ?? 1000;
  let nextSession = 1;
  const buffer = options.resumeBuffer ?? Number.POSITIVE_INFINITY;

  const sessionStarted = () => {
    started += 1;
    for (const w of [...sessionWaiters]) {
      if (started >= w.count) {
        sessionWaiters.splice(sessionWaiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };

  const send = (socket: WebSocket | undefined, payload: unknown) => {
    if (socket && socket.readyState === socket.OPEN) socket.send(JSON.stringify(payload));
  };
  const emit = (session: Session, t: string, d: unknown) => {
    session.seq += 1;
    remember(session.log, { s: session.seq, t, d }, buffer);
    send(session.socket, { op: GatewayOp.Dispatch, s: session.seq, t, d });
  };

  const gatewayBot = (req: RecordedRequest): FakeResponse => {
    if (req.headers.authorization !== `Bot ${options.token}`) return { status: 401, body: { message: '401: Unauthorized', code: 0 } };
    return {
      body: {
        url,
        shards: 1,
        session_start_limit: { total: options.identifyLimit ?? 1000, remaining, reset_after: 86_400_000, max_concurrency: 1 },
      },
    };
  };
  server.on('GET', '/api/v10/gateway/bot', gatewayBot);

  wss.on('connection', (socket, request) => {
    sockets.add(socket);
    connections.push(request.url ?? '/');
    let session: Session | undefined;
    socket.on('close', () => {
      sockets.delete(socket);
      if (session?.socket === socket) session.socket = undefined;
    });
    socket.on('message', (raw) => {
      let payload: { op?: number; d?: Record<string, unknown> | number | null };
      try {
        payload = JSON.parse(frameText(raw)) as typeof payload;
      } catch {
        socket.close(GatewayClose.DecodeError, 'Error while decoding payload.');
        return;
      }
      const d = (payload.d ?? {}) as Record<string, unknown>;
      switch (payload.op) {
        case GatewayOp.Heartbeat:
          heartbeats.received += 1;
          if (acking) {
            heartbeats.acked += 1;
            send(socket, { op: GatewayOp.HeartbeatAck });
          }
          return;
        case GatewayOp.Identify: {
          identifies.push({ token: String(d.token), intents: Number(d.intents), shard: d.shard, properties: d.properties, at: Date.now() });
          if (session) return void socket.close(GatewayClose.AlreadyAuthenticated, 'You sent more than one identify payload.');
          if (d.token !== options.token) return void socket.close(GatewayClose.AuthenticationFailed, 'Authentication failed.');
          const intents = Number(d.intents);
          if (!Number.isInteger(intents) || intents < 0 || (intents & ~ALL_INTENTS) !== 0) return void socket.close(GatewayClose.InvalidIntents, 'Invalid intent(s).');
          if ((intents & PRIVILEGED_INTENTS & ~allowedPrivileged) !== 0) return void socket.close(GatewayClose.DisallowedIntents, 'Disallowed intent(s).');
          remaining = Math.max(0, remaining - 1);
          session = { id: `fake-session-${nextSession++}`, intents, log: [], seq: 0, socket, invalid: false };
          sessions.set(session.id, session);
          emit(session, 'READY', {
            v: 10,
            user: { id: bot.id, username: bot.username, discriminator: '0', global_name: null, avatar: null, bot: true },
            guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
            session_id: session.id,
            resume_gateway_url: `${url}/resume`,
            shard: [0, 1],
            application: { id: options.applicationId ?? bot.id, flags: 0 },
          });
          for (const guild of guilds) emit(session, 'GUILD_CREATE', guild);
          sessionStarted();
          return;
        }
        case GatewayOp.Resume: {
          resumes.push({ token: String(d.token), sessionId: String(d.session_id), seq: d.seq === null ? null : Number(d.seq), at: Date.now() });
          if (d.token !== options.token) return void socket.close(GatewayClose.AuthenticationFailed, 'Authentication failed.');
          const found = sessions.get(String(d.session_id));
          if (!found || found.invalid) {
            // Discord answers an unknown or expired session with op 9, d false: identify anew.
            send(socket, { op: GatewayOp.InvalidSession, d: false });
            return;
          }
          const seq = Number(d.seq ?? 0);
          if (seq > found.seq) return void socket.close(GatewayClose.InvalidSeq, 'Invalid seq.');
          // Events after seq that the buffer no longer holds cannot be replayed: identify anew.
          if (found.seq - seq > found.log.length) return void send(socket, { op: GatewayOp.InvalidSession, d: false });
          found.socket?.close(GatewayClose.UnknownError, 'Session resumed elsewhere.');
          found.socket = socket;
          session = found;
          for (const missed of found.log.filter((e) => e.s > seq)) send(socket, { op: GatewayOp.Dispatch, ...missed });
          emit(found, 'RESUMED', null);
          sessionStarted();
          return;
        }
        case GatewayOp.PresenceUpdate:
          if (!session) socket.close(GatewayClose.NotAuthenticated, 'Not authenticated.');
          return;
        default:
          socket.close(GatewayClose.UnknownOpcode, 'Unknown opcode.');
      }
    });
    send(socket, { op: GatewayOp.Hello, d: { heartbeat_interval: interval } });
  });

  return {
    url,
    identifies,
    resumes,
    connections,
    heartbeats,
    liveSessions: () => [...sessions.values()].filter((s) => s.socket && s.socket.readyState === s.socket.OPEN).length,
    dispatch(t, d) {
      for (const session of sessions.values()) if (!session.invalid) emit(session, t, d);
    },
    drop(code = GatewayClose.UnknownError) {
      for (const socket of sockets) socket.close(code, 'Dropped by the fake.');
    },
    reconnect() {
      for (const session of sessions.values()) send(session.socket, { op: GatewayOp.Reconnect, d: null });
    },
    invalidateSession(resumable) {
      for (const session of sessions.values()) {
        if (!resumable) session.invalid = true;
        send(session.socket, { op: GatewayOp.InvalidSession, d: resumable });
      }
    },
    setAcking: (on) => void (acking = on),
    waitForSessions(count, timeoutMs = 15_000) {
      if (started >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`fake Gateway: ${started} of ${count} sessions after ${timeoutMs} ms`)), timeoutMs);
        sessionWaiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    async close() {
      for (const socket of sockets) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      if (!options.server) await server.close();
    },
  };
}

/** A text frame's payload, whichever shape `ws` delivers it in. */
export function frameText(raw: RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  return Buffer.from(raw as ArrayBuffer).toString('utf8');
}
