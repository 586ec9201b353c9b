import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { frameText } from '../src/fake-discord-gateway.ts';
import { GatewayClose, GatewayOp, startFakeDiscordGateway, startFakeHttpServer, type FakeDiscordGateway, type FakeHttpServer } from '../src/index.ts';

const TOKEN = 'bot-token-1';
const INTENTS = (1 << 0) | (1 << 9) | (1 << 15);
let gateway: FakeDiscordGateway | undefined;
let http: FakeHttpServer | undefined;
const open: WebSocket[] = [];

afterEach(async () => {
  for (const s of open.splice(0)) s.terminate();
  await gateway?.close();
  await http?.close();
  gateway = undefined;
  http = undefined;
});

interface Frame {
  op: number;
  s?: number | null;
  t?: string | null;
  d?: unknown;
}

/** A bare client that keeps every frame and the close code, to check the wire itself. */
function connect(url: string): Promise<{ socket: WebSocket; frames: Frame[]; next(pred: (f: Frame) => boolean): Promise<Frame>; closed: Promise<number> }> {
  const socket = new WebSocket(url);
  open.push(socket);
  const frames: Frame[] = [];
  const waiters: { pred: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  socket.on('message', (raw) => {
    const frame = JSON.parse(frameText(raw)) as Frame;
    frames.push(frame);
    for (const w of [...waiters]) {
      if (!w.pred(frame)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(frame);
    }
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('open', () =>
      resolve({
        socket,
        frames,
        closed,
        next: (pred) => {
          const seen = frames.find(pred);
          if (seen) return Promise.resolve(seen);
          return new Promise((r) => waiters.push({ pred, resolve: r }));
        },
      }),
    );
  });
}

const identify = (socket: WebSocket, token = TOKEN, intents = INTENTS) =>
  socket.send(JSON.stringify({ op: GatewayOp.Identify, d: { token, intents, properties: { os: 'linux', browser: 'test', device: 'test' }, shard: [0, 1] } }));

describe('fake Discord Gateway', () => {
  it('says HELLO, answers IDENTIFY with READY (session_id, resume_gateway_url) and GUILD_CREATE, and ACKs heartbeats', async () => {
    http = await startFakeHttpServer('Discord');
    gateway = await startFakeDiscordGateway({ server: http, token: TOKEN, heartbeatIntervalMs: 500, guilds: [{ id: '100000000000000001', name: 'Guild', channels: [], threads: [], roles: [] }] });
    const c = await connect(`${gateway.url}/?v=10&encoding=json`);
    const hello = await c.next((f) => f.op === GatewayOp.Hello);
    expect(hello.d).toEqual({ heartbeat_interval: 500 });
    identify(c.socket);
    const ready = await c.next((f) => f.t === 'READY');
    expect(ready).toMatchObject({ op: 0, s: 1, d: { session_id: expect.any(String), resume_gateway_url: `${gateway.url}/resume`, guilds: [{ id: '100000000000000001', unavailable: true }] } });
    expect(await c.next((f) => f.t === 'GUILD_CREATE')).toMatchObject({ s: 2 });
    c.socket.send(JSON.stringify({ op: GatewayOp.Heartbeat, d: 2 }));
    await c.next((f) => f.op === GatewayOp.HeartbeatAck);
    expect(gateway.heartbeats).toEqual({ received: 1, acked: 1 });
    gateway.dispatch('MESSAGE_CREATE', { id: '5', channel_id: '6', content: 'hi' });
    expect(await c.next((f) => f.t === 'MESSAGE_CREATE')).toMatchObject({ s: 3, d: { id: '5' } });
    expect(gateway.identifies[0]).toMatchObject({ token: TOKEN, intents: INTENTS, shard: [0, 1] });
  });

  it('reports session_start_limit at GET /gateway/bot with the bot token, counting each IDENTIFY down', async () => {
    http = await startFakeHttpServer('Discord');
    gateway = await startFakeDiscordGateway({ server: http, token: TOKEN, identifyLimit: 5 });
    const get = (auth?: string) => fetch(`${http!.url}/api/v10/gateway/bot`, { headers: auth ? { authorization: auth } : {} });
    expect((await get()).status).toBe(401);
    expect(await (await get(`Bot ${TOKEN}`)).json()).toEqual({ url: gateway.url, shards: 1, session_start_limit: { total: 5, remaining: 5, reset_after: 86_400_000, max_concurrency: 1 } });
    const c = await connect(gateway.url);
    identify(c.socket);
    await c.next((f) => f.t === 'READY');
    expect(((await (await get(`Bot ${TOKEN}`)).json()) as { session_start_limit: { remaining: number } }).session_start_limit.remaining).toBe(4);
  });

  it('closes with 4004 for a wrong token and 4014 for a privileged intent the application lacks', async () => {
    gateway = await startFakeDiscordGateway({ token: TOKEN, privilegedIntents: 0 });
    const wrong = await connect(gateway.url);
    identify(wrong.socket, 'nope');
    expect(await wrong.closed).toBe(GatewayClose.AuthenticationFailed);
    const privileged = await connect(gateway.url);
    identify(privileged.socket, TOKEN, INTENTS);
    expect(await privileged.closed).toBe(GatewayClose.DisallowedIntents);
    const plain = await connect(gateway.url);
    identify(plain.socket, TOKEN, (1 << 0) | (1 << 9));
    await plain.next((f) => f.t === 'READY');
  });

  it('RESUME replays what the session missed after seq, then RESUMED; an unknown session gets op 9 false', async () => {
    gateway = await startFakeDiscordGateway({ token: TOKEN });
    const first = await connect(gateway.url);
    identify(first.socket);
    const ready = await first.next((f) => f.t === 'READY');
    gateway.dispatch('THREAD_CREATE', { id: 't1' });
    await first.next((f) => f.t === 'THREAD_CREATE');
    gateway.drop();
    expect(await first.closed).toBe(GatewayClose.UnknownError);
    // While nobody is connected, Discord keeps the session's events.
    gateway.dispatch('MESSAGE_CREATE', { id: 'm1' });
    gateway.dispatch('MESSAGE_REACTION_ADD', { message_id: 'm1', emoji: { name: '✅' } });
    const again = await connect(`${gateway.url}/resume?v=10&encoding=json`);
    again.socket.send(JSON.stringify({ op: GatewayOp.Resume, d: { token: TOKEN, session_id: (ready.d as { session_id: string }).session_id, seq: 2 } }));
    await again.next((f) => f.t === 'RESUMED');
    expect(again.frames.filter((f) => f.op === 0).map((f) => [f.s, f.t])).toEqual([
      [3, 'MESSAGE_CREATE'],
      [4, 'MESSAGE_REACTION_ADD'],
      [5, 'RESUMED'],
    ]);
    const stranger = await connect(gateway.url);
    stranger.socket.send(JSON.stringify({ op: GatewayOp.Resume, d: { token: TOKEN, session_id: 'gone', seq: 1 } }));
    expect(await stranger.next((f) => f.op === GatewayOp.InvalidSession)).toEqual({ op: 9, d: false });
  });

  it('keeps resumeBuffer dispatches for RESUME: one from before the oldest kept gets op 9 false', async () => {
    gateway = await startFakeDiscordGateway({ token: TOKEN, resumeBuffer: 2 });
    const first = await connect(gateway.url);
    identify(first.socket);
    const ready = await first.next((f) => f.t === 'READY');
    const sessionId = (ready.d as { session_id: string }).session_id;
    gateway.drop();
    await first.closed;
    for (const id of ['m1', 'm2', 'm3']) gateway.dispatch('MESSAGE_CREATE', { id });
    const late = await connect(`${gateway.url}/resume?v=10&encoding=json`);
    // READY was 1, then m1–m3 were 2–4: from 1, m1 is gone.
    late.socket.send(JSON.stringify({ op: GatewayOp.Resume, d: { token: TOKEN, session_id: sessionId, seq: 1 } }));
    expect(await late.next((f) => f.op === GatewayOp.InvalidSession)).toEqual({ op: 9, d: false });
    const recent = await connect(`${gateway.url}/resume?v=10&encoding=json`);
    recent.socket.send(JSON.stringify({ op: GatewayOp.Resume, d: { token: TOKEN, session_id: sessionId, seq: 2 } }));
    await recent.next((f) => f.t === 'RESUMED');
    expect(recent.frames.filter((f) => f.op === 0).map((f) => (f.d as { id?: string } | null)?.id ?? f.t)).toEqual(['m2', 'm3', 'RESUMED']);
  });

  it('sends RECONNECT and INVALID_SESSION on demand, and refuses a second IDENTIFY on one socket (4005)', async () => {
    gateway = await startFakeDiscordGateway({ token: TOKEN });
    const c = await connect(gateway.url);
    identify(c.socket);
    await c.next((f) => f.t === 'READY');
    gateway.reconnect();
    await c.next((f) => f.op === GatewayOp.Reconnect);
    gateway.invalidateSession(true);
    expect(await c.next((f) => f.op === GatewayOp.InvalidSession)).toEqual({ op: 9, d: true });
    identify(c.socket);
    expect(await c.closed).toBe(GatewayClose.AlreadyAuthenticated);
  });
});
