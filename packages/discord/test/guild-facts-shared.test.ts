/**
 * Guild facts are kept in guild_facts, so every process (the worker, the interactions handler,
 * MCP) answers from the same facts (issue 14): a role or overwrite change is honoured by another
 * process's ask within 60 s of the last read by any of them, and a sync pass makes it immediate.
 * Each "process" is its own cached source over its own REST client, sharing only the database;
 * one clock drives all of them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createLogger } from '@brain/observability';
import { fakeMessage, snowflakeAt, startFakeDiscordGuilds, startFakeDiscordHistory, type FakeDiscordGuilds, type FakeDiscordHistory, type FakeGuildState } from '@brain/testkit';
import { resolveAskAudience } from '../src/audience/resolve-ask-audience.ts';
import { createDiscordHistory } from '../src/history/discord-history.ts';
import { createCachedGuildFacts, GUILD_FACTS_TTL_MS } from '../src/rest/cached-guild-facts.ts';
import { createDiscordApi } from '../src/rest/discord-api.ts';
import { addSyncedChannel } from '../src/sync/add-synced-channel.ts';
import { syncChannel } from '../src/sync/sync-channel.ts';

const VIEW = String(1n << 10n);
const ADMINISTRATOR = String(1n << 3n);
const BASE = String((1n << 10n) | (1n << 11n) | (1n << 16n));
const GUILD = '740000000000000001';
const MODS = '740000000000000010';
const GENERAL = '740000000000000101';
const STAFF = '740000000000000102';
const staffKey = `channel:${STAFF}`;
const MODERATOR = { id: '740000000000000500', roles: [MODS] };
const logger = createLogger({ level: 'silent' });

function guild(): FakeGuildState {
  return {
    id: GUILD,
    owner_id: '740000000000000999',
    name: 'Acme',
    roles: [
      { id: GUILD, name: '@everyone', permissions: BASE },
      { id: MODS, name: 'Moderators', permissions: '0' },
    ],
    channels: [
      { id: GENERAL, type: 0, name: 'general' },
      { id: STAFF, type: 0, name: 'staff', permission_overwrites: [{ id: GUILD, type: 0, allow: '0', deny: VIEW }] },
    ],
  };
}

describeDb('guild facts shared through the database', (suite) => {
  let guilds: FakeDiscordGuilds;
  let history: FakeDiscordHistory;
  let workspaceId = '';
  let syncedChannelId = '';
  const clock = { t: 0 };

  beforeAll(async () => {
    guilds = await startFakeDiscordGuilds({ guilds: [guild()] });
    history = await startFakeDiscordHistory();
    history.createChannel(GENERAL, { guildId: GUILD, name: 'general' });
    history.addMessages(GENERAL, [fakeMessage({ id: snowflakeAt(Date.parse('2026-11-30T09:01:00Z')), channelId: GENERAL, author: 'Ada', content: 'Standup moves to 10:00.' })]);
    const [ws] = await withService(suite.db, (tx) => tx.query<{ id: string }>("insert into workspaces (slug, guild_id) values ('shared-guild-facts', $1) returning id", [GUILD]));
    workspaceId = ws?.id as string;
    await withService(suite.db, (tx) =>
      tx.query("insert into artifacts (workspace_id, kind, source_key, title, status, audience) values ($1, 'text', 'staff-note', 'Staff note', 'ready', $2)", [workspaceId, staffKey]),
    );
    const { channel } = await addSyncedChannel(suite.db, { workspaceId, guildId: GUILD, channelId: GENERAL, channelName: 'general', kind: 'text', pinsOnly: false, addedBy: 'test' });
    syncedChannelId = channel.id;
  });
  afterAll(async () => {
    await guilds?.close();
    await history?.close();
  });
  beforeEach(async () => {
    guilds.guilds.set(GUILD, guild());
    clock.t = 0;
    await withService(suite.db, (tx) => tx.query('delete from guild_facts where workspace_id = $1', [workspaceId]));
  });

  /** One process's facts: its own REST client and memory, the shared database. */
  const process = (botToken = guilds.botToken) =>
    createCachedGuildFacts({ api: createDiscordApi({ apiBase: guilds.apiBase, botToken, retries: 0 }), logger, db: suite.db, now: () => clock.t });
  type Facts = ReturnType<typeof process>;
  const ask = async (facts: Facts, member?: typeof MODERATOR): Promise<string[]> => {
    const { filter } = await resolveAskAudience(suite.db, facts, { workspaceId, guildId: GUILD, channel: { id: GENERAL, type: 0 }, ...(member ? { member } : {}) });
    return filter.kind === 'keys' ? [...filter.keys] : [];
  };
  const openStaff = () => {
    const staff = guilds.guilds.get(GUILD)?.channels.find((c) => c.id === STAFF);
    if (staff) staff.permission_overwrites = [];
  };
  const syncPass = (worker: Facts) =>
    syncChannel(suite.db, createDiscordHistory({ apiBase: history.apiBase, botToken: 't' }), { workspaceId, syncedChannelId, runId: randomUUID(), guildFacts: worker });

  it('an overwrite change is honoured by another process within 60 s of the last read by any process', async () => {
    const worker = process();
    const interactions = process();
    await syncPass(worker);
    const afterSync = guilds.reads();

    clock.t = 30_000;
    expect(await ask(interactions)).not.toContain(staffKey);
    expect(guilds.reads()).toBe(afterSync); // the worker's read, from the database

    openStaff();
    clock.t = GUILD_FACTS_TTL_MS - 1;
    expect(await ask(interactions)).not.toContain(staffKey);
    clock.t = GUILD_FACTS_TTL_MS;
    expect(await ask(interactions)).toContain(staffKey);
    expect(guilds.reads()).toBeGreaterThan(afterSync);
  });

  it('a sync pass makes an overwrite change immediate for every process', async () => {
    const worker = process();
    const interactions = process();
    const mcp = process();
    expect(await ask(interactions)).not.toContain(staffKey);

    openStaff();
    clock.t = 1_000;
    await syncPass(worker);
    const afterSync = guilds.reads();
    expect(await ask(interactions)).toContain(staffKey);
    expect(await ask(mcp)).toContain(staffKey);
    expect(guilds.reads()).toBe(afterSync);
  });

  it('a sync pass makes a role change immediate for a private ask', async () => {
    const worker = process();
    const interactions = process();
    expect(await ask(interactions, MODERATOR)).not.toContain(staffKey);

    const mods = guilds.guilds.get(GUILD)?.roles.find((r) => r.id === MODS);
    if (mods) mods.permissions = ADMINISTRATOR;
    clock.t = 1_000;
    await syncPass(worker);
    expect(await ask(interactions, MODERATOR)).toContain(staffKey);
    // Everyone else still may not read #staff.
    expect(await ask(interactions)).not.toContain(staffKey);
  });

  it('reads the guild once for many asks at once in one process', async () => {
    const interactions = process();
    const before = guilds.reads();
    await Promise.all(Array.from({ length: 6 }, () => ask(interactions)));
    // GET /guilds/{id}, its roles and its channels: one read of each.
    expect(guilds.reads() - before).toBe(3);
  });

  it('fails closed when the stored facts are older than 60 s and cannot be read again', async () => {
    openStaff();
    await syncPass(process());
    const refused = process('revoked-token');
    clock.t = GUILD_FACTS_TTL_MS - 1;
    expect(await ask(refused)).toContain(staffKey);
    clock.t = GUILD_FACTS_TTL_MS;
    // Stale facts might miss a new deny: #staff's source is citable only in #staff again.
    expect((await ask(refused)).sort()).toEqual([`channel:${GENERAL}`, 'workspace']);
  });

  it('keeps the guild’s channels with their names for the dashboard', async () => {
    await syncPass(process());
    const [row] = await withService(suite.db, (tx) =>
      tx.query<{ guild_id: string; channels: { id: string; name: string }[] }>('select guild_id, channels from guild_facts where workspace_id = $1', [workspaceId]),
    );
    expect(row?.guild_id).toBe(GUILD);
    expect(row?.channels.map((c) => [c.id, c.name])).toEqual([
      [GENERAL, 'general'],
      [STAFF, 'staff'],
    ]);
  });
});
