/**
 * Guild facts come from the bot token's REST reads, cached per guild: a role or overwrite change
 * takes effect within 60 s (GUILD_FACTS_TTL_MS), measured on a fake clock against a fake Discord
 * that answers like the real one. Unreadable facts fail closed.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '@brain/observability';
import { startFakeDiscordGuilds, type FakeDiscordGuilds, type FakeGuildState } from '@brain/testkit';
import { channelAskAudience, privateAskAudience } from '../src/audience/allowed-audiences.ts';
import { createCachedGuildFacts, GUILD_FACTS_TTL_MS } from '../src/rest/cached-guild-facts.ts';
import { createDiscordApi } from '../src/rest/discord-api.ts';

const VIEW = String(1n << 10n);
const BASE = String((1n << 10n) | (1n << 11n) | (1n << 16n));
const GUILD = '700000000000000001';
const STAFF_ROLE = '700000000000000010';
const GENERAL = '700000000000000101';
const STAFF = '700000000000000102';
const HIDDEN = '700000000000000103';
const PRIVATE_THREAD = '700000000000000104';
const staffKey = `channel:${STAFF}` as const;
/** Without a database the facts are this process's own: the workspace is not looked at. */
const SCOPE = { workspaceId: 'in-memory', guildId: GUILD };

function guild(): FakeGuildState {
  return {
    id: GUILD,
    owner_id: '700000000000000999',
    name: 'Acme',
    roles: [
      { id: GUILD, name: '@everyone', permissions: BASE },
      { id: STAFF_ROLE, name: 'Staff', permissions: '0' },
    ],
    channels: [
      { id: GENERAL, type: 0, name: 'general' },
      { id: STAFF, type: 0, name: 'staff', permission_overwrites: [{ id: GUILD, type: 0, allow: '0', deny: VIEW }, { id: STAFF_ROLE, type: 0, allow: VIEW, deny: '0' }] },
      { id: HIDDEN, type: 0, name: 'hidden', hiddenFromBot: true },
      { id: PRIVATE_THREAD, type: 12, name: 'secret thread', parent_id: STAFF },
    ],
  };
}

let fake: FakeDiscordGuilds;
const logger = createLogger({ level: 'silent' });
beforeAll(async () => {
  fake = await startFakeDiscordGuilds({ guilds: [guild()] });
});
afterAll(() => fake.close());

function source(clock: { t: number }, botToken = fake.botToken) {
  return createCachedGuildFacts({ api: createDiscordApi({ apiBase: fake.apiBase, botToken, retries: 0 }), logger, now: () => clock.t });
}
const general = { id: GENERAL, type: 0 };

it('an overwrite change takes effect within 60 s, and not before the cache expires', async () => {
  fake.guilds.set(GUILD, guild());
  const clock = { t: 0 };
  const facts = source(clock);
  const before = await facts.facts(SCOPE, [STAFF]);
  expect(channelAskAudience(before, general, [staffKey])).toEqual(['workspace']);
  const reads = fake.reads();

  // An admin opens #staff to everyone.
  const g = fake.guilds.get(GUILD) as FakeGuildState;
  const staff = g.channels.find((c) => c.id === STAFF);
  if (staff) staff.permission_overwrites = [];

  clock.t = GUILD_FACTS_TTL_MS - 1;
  expect(channelAskAudience(await facts.facts(SCOPE, [STAFF]), general, [staffKey])).toEqual(['workspace']);
  expect(fake.reads()).toBe(reads); // served from the cache

  clock.t = GUILD_FACTS_TTL_MS;
  expect(channelAskAudience(await facts.facts(SCOPE, [STAFF]), general, [staffKey])).toEqual(['workspace', staffKey]);
  expect(GUILD_FACTS_TTL_MS).toBeLessThanOrEqual(60_000);
});

it('a role change takes effect within 60 s for a private ask', async () => {
  fake.guilds.set(GUILD, guild());
  const clock = { t: 0 };
  const facts = source(clock);
  const member = { id: '700000000000000500', roles: [STAFF_ROLE] };
  expect(privateAskAudience(await facts.facts(SCOPE, [STAFF]), member, general, [staffKey])).toEqual(['workspace', staffKey]);

  // The Staff role's allow is withdrawn (the role loses access to #staff).
  const staff = (fake.guilds.get(GUILD) as FakeGuildState).channels.find((c) => c.id === STAFF);
  if (staff) staff.permission_overwrites = [{ id: GUILD, type: 0, allow: '0', deny: VIEW }];
  clock.t = GUILD_FACTS_TTL_MS;
  expect(privateAskAudience(await facts.facts(SCOPE, [STAFF]), member, general, [staffKey])).toEqual(['workspace']);
});

it('reads threads with GET /channels/{id}, and leaves a channel the bot cannot see undescribed (closed)', async () => {
  fake.guilds.set(GUILD, guild());
  const facts = await source({ t: 0 }).facts(SCOPE, [PRIVATE_THREAD, HIDDEN, '700000000000000777']);
  expect(facts?.channels.get(PRIVATE_THREAD)).toMatchObject({ type: 12, parentId: STAFF });
  expect(facts?.channels.has(HIDDEN)).toBe(false);
  expect(facts?.channels.has('700000000000000777')).toBe(false);
  // A source saved in the hidden channel is citable only there.
  expect(channelAskAudience(facts, general, [`channel:${HIDDEN}`])).toEqual(['workspace']);
  expect(channelAskAudience(facts, { id: HIDDEN, type: 0 }, [`channel:${HIDDEN}`])).toEqual(['workspace', `channel:${HIDDEN}`]);
});

it('gives no facts when the bot token is refused, so every source stays in its own channel', async () => {
  const facts = await source({ t: 0 }, 'wrong-token').facts(SCOPE, [STAFF]);
  expect(facts).toBeUndefined();
  expect(channelAskAudience(facts, general, [staffKey, `channel:${GENERAL}`])).toEqual(['workspace', `channel:${GENERAL}`]);
});
