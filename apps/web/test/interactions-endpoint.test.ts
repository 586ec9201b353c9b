import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDb } from '@brain/db/testing';
import { generateDevKeyPair } from '@brain/discord';
import { expectNoMoreCalls, startFakeDiscord, type FakeDiscord } from '@brain/testkit';
import { INTERACTION_BODY_LIMIT } from '../src/index.ts';
import { button, createGuildWorkspace, MEMBER, slash, startHarness, type Harness } from './helpers/discord-harness.ts';

describeDb('POST /interactions: verification and refusals', (suite) => {
  let discord: FakeDiscord;
  let h: Harness;
  let guild: { guildId: string; workspaceId: string };

  beforeAll(async () => {
    discord = await startFakeDiscord();
    h = await startHarness({ db: suite.db, discord });
    guild = await createGuildWorkspace(suite.db);
  });
  afterAll(async () => {
    await h.close();
    await discord.close();
  });

  const ping = { type: 1 };
  const raw = JSON.stringify(ping);
  const now = () => String(Math.floor(Date.now() / 1000));

  it('answers a signed PING with PONG', async () => {
    expect(await h.send(ping)).toEqual({ status: 200, json: { type: 1 } });
  });

  it.each([
    ['no signature headers', {}],
    ['only the timestamp', { 'x-signature-timestamp': '1' }],
  ])('refuses %s with 401', async (_name, headers) => {
    const res = await h.app.inject({ method: 'POST', url: '/interactions', headers: { 'content-type': 'application/json', ...headers }, payload: raw });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a signature made with another key, an altered body, a swapped timestamp and a stale one with 401', async () => {
    expect((await h.send(ping, { key: generateDevKeyPair() })).status).toBe(401);
    const ts = now();
    const signature = h.keys.sign(ts, raw);
    const post = (payload: string, timestamp: string) =>
      h.app.inject({ method: 'POST', url: '/interactions', headers: { 'content-type': 'application/json', 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp }, payload });
    expect((await post(raw, ts)).statusCode).toBe(200);
    expect((await post('{"type": 1}', ts)).statusCode).toBe(401);
    expect((await post(raw, String(Number(ts) + 1))).statusCode).toBe(401);
    expect((await h.send(ping, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 })).status).toBe(401);
  });

  it('refuses a body over the limit with 413 before verifying it, and malformed JSON or shapes with 400', async () => {
    const big = JSON.stringify({ type: 1, pad: 'x'.repeat(INTERACTION_BODY_LIMIT) });
    expect((await h.send({}, { raw: big })).status).toBe(413);
    const broken = await h.send({}, { raw: '{"type":1' });
    expect(broken.status).toBe(400);
    expect(broken.json.error).toBe('INTERACTION_MALFORMED');
    expect((await h.send({ type: 2, id: 'x' })).status).toBe(400);
    expect((await h.send({ type: 99 })).status).toBe(400);
  });

  it('refuses commands in a DM, with a clear ephemeral message', async () => {
    const res = await h.send(slash(undefined, 'ask', [{ name: 'question', value: 'hi' }]));
    expect(res.status).toBe(200);
    expect(res.json.type).toBe(4);
    expect(res.json.data.flags & 64).toBe(64);
    expect(res.json.data.content).toContain('I only work inside a server');
    expect(res.json.data.allowed_mentions).toEqual({ parse: [] });
  });

  it('sends an unknown server to the install page and an unclaimed one to the claim page', async () => {
    const unknown = await h.send(slash('123456789012345678', 'ask', [{ name: 'question', value: 'hi' }]));
    expect(unknown.json.data.content).toContain("This server hasn't installed Company Brain yet");
    expect(unknown.json.data.content).toContain('<https://brain.example.com/install>');
    const unclaimed = await createGuildWorkspace(suite.db, { claimed: false });
    const res = await h.send(slash(unclaimed.guildId, 'sources'));
    expect(res.json.data.content).toContain(`an admin needs to claim this workspace before it can be used: <https://brain.example.com/claim?guild=${unclaimed.guildId}>`);
    expect(res.json.data.flags & 64).toBe(64);
  });

  it('re-checks admin permissions on the server for /forget and Undo, whatever Discord showed', async () => {
    const res = await h.send(slash(guild.guildId, 'forget', [{ name: 'source', value: '00000000-0000-0000-0000-000000000000' }], { permissions: MEMBER }));
    expect(res.json.type).toBe(4);
    expect(res.json.data.content).toBe('Only server admins (Manage Server) can do that.');
    const undo = await h.send(button(guild.guildId, 'r:00000000-0000-0000-0000-000000000000', MEMBER));
    expect(undo.json.data.content).toBe('Only server admins (Manage Server) can do that.');
  });

  it('acknowledges a repeated interaction id the same way, and acts on it once', async () => {
    const body = slash(guild.guildId, 'sources');
    const [first, second] = [await h.send(body), await h.send(body)];
    expect(first.json).toEqual({ type: 5, data: { flags: 64 } });
    expect(second.json).toEqual(first.json);
    await discord.waitForCalls(body.token, 1);
    await expectNoMoreCalls(() => discord.callsFor(body.token), 300);
  });

  it('acts once even when the same interaction reaches two instances (the database decides)', async () => {
    const other = await startHarness({ db: suite.db, discord });
    try {
      const body = slash(guild.guildId, 'sources');
      const ts = Math.floor(Date.now() / 1000);
      // Both instances verify Discord's key: the second harness gets the first one's key pair.
      const raw = JSON.stringify(body);
      const headers = (key: typeof h.keys) => ({ 'content-type': 'application/json', 'x-signature-ed25519': key.sign(String(ts), raw), 'x-signature-timestamp': String(ts) });
      const [a, b] = await Promise.all([
        h.app.inject({ method: 'POST', url: '/interactions', headers: headers(h.keys), payload: raw }),
        other.app.inject({ method: 'POST', url: '/interactions', headers: headers(other.keys), payload: raw }),
      ]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      await discord.waitForCalls(body.token, 1);
      await expectNoMoreCalls(() => discord.callsFor(body.token), 500);
    } finally {
      await other.close();
    }
  });

  it('tells a person who used a command this release does not know what to do', async () => {
    const res = await h.send(slash(guild.guildId, 'teleport'));
    expect(res.json.data.content).toContain('brain register-commands');
  });
});
