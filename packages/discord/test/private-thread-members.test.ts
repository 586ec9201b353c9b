/**
 * A private thread's audience is its members (issue 14): /sync reads them over REST
 * (GET /channels/{id}/thread-members, paged), a private answer cites the thread's source to its
 * members only, a normal answer only inside the thread itself, and a member who leaves stops
 * counting at the next sync. Without the GUILD_MEMBERS intent the list is refused: no member is
 * known, and the source stays inside the thread.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createLogger } from '@brain/observability';
import { fakeMessage, snowflakeAt, startFakeDiscordGuilds, startFakeDiscordHistory, type FakeDiscordGuilds, type FakeDiscordHistory } from '@brain/testkit';
import { resolveAskAudience } from '../src/audience/resolve-ask-audience.ts';
import { createDiscordHistory } from '../src/history/discord-history.ts';
import { createCachedGuildFacts } from '../src/rest/cached-guild-facts.ts';
import { createDiscordApi } from '../src/rest/discord-api.ts';
import { addSyncedChannel } from '../src/sync/add-synced-channel.ts';
import { syncChannel } from '../src/sync/sync-channel.ts';

const BASE = String((1n << 10n) | (1n << 11n) | (1n << 16n));
const GUILD = '710000000000000001';
const HELP = '710000000000000002';
const GENERAL = '710000000000000003';
const PRIVATE = snowflakeAt(Date.parse('2026-11-30T09:00:00Z'));
// 150 members: two pages of the list (100 a page).
const MEMBERS = Array.from({ length: 150 }, (_, i) => String(720000000000000000n + BigInt(i)));
const ADA = MEMBERS[0] as string;
const LAST = MEMBERS[149] as string;
const GRACE = '730000000000000001';
const privateKey = `channel:${PRIVATE}`;
const logger = createLogger({ level: 'silent' });

describeDb('private thread members', (suite) => {
  let history: FakeDiscordHistory;
  let guilds: FakeDiscordGuilds;
  let workspaceId = '';
  let syncedChannelId = '';

  beforeAll(async () => {
    history = await startFakeDiscordHistory();
    history.createChannel(HELP, { guildId: GUILD, name: 'help' });
    history.createThread(PRIVATE, { parentId: HELP, name: 'Offboarding', private: true, botIsMember: true });
    history.addMessages(PRIVATE, [fakeMessage({ id: snowflakeAt(Date.parse('2026-11-30T09:01:00Z')), channelId: PRIVATE, author: 'Ada', content: 'Badge returns go to the front desk.' })]);
    history.setThreadMembers(PRIVATE, MEMBERS);
    guilds = await startFakeDiscordGuilds({
      guilds: [
        {
          id: GUILD,
          owner_id: '710000000000000999',
          name: 'Acme',
          roles: [{ id: GUILD, name: '@everyone', permissions: BASE }],
          channels: [
            { id: HELP, type: 0, name: 'help' },
            { id: GENERAL, type: 0, name: 'general' },
            { id: PRIVATE, type: 12, name: 'Offboarding', parent_id: HELP },
          ],
        },
      ],
    });
    const [ws] = await withService(suite.db, (tx) => tx.query<{ id: string }>("insert into workspaces (slug, guild_id) values ('private-threads', $1) returning id", [GUILD]));
    workspaceId = ws?.id as string;
    const { channel } = await addSyncedChannel(suite.db, { workspaceId, guildId: GUILD, channelId: HELP, channelName: 'help', kind: 'text', pinsOnly: false, addedBy: 'test' });
    syncedChannelId = channel.id;
  });
  afterAll(async () => {
    await history?.close();
    await guilds?.close();
  });

  const reader = () => createDiscordHistory({ apiBase: history.apiBase, botToken: 't' });
  const pass = () => syncChannel(suite.db, reader(), { workspaceId, syncedChannelId, runId: randomUUID() });
  // A fresh cache each time: what is judged here is the sync's member list, not the 60 s of the facts.
  const keys = async (channelId: string, member?: string) => {
    const facts = createCachedGuildFacts({ api: createDiscordApi({ apiBase: guilds.apiBase, botToken: guilds.botToken, retries: 0 }), logger });
    const channel = channelId === PRIVATE ? { id: PRIVATE, type: 12, parentId: HELP } : { id: channelId, type: 0 };
    const { filter } = await resolveAskAudience(suite.db, facts, { workspaceId, guildId: GUILD, channel, ...(member ? { member: { id: member, roles: [] } } : {}) });
    return filter.kind === 'keys' ? filter.keys : [];
  };

  it('reads every member of a private thread, page by page, and cites its source privately to them only', async () => {
    expect(await pass()).toMatchObject({ state: 'current', saved: 1 });
    const pages = history.requests.filter((r) => r.path === `/api/v10/channels/${PRIVATE}/thread-members`);
    expect(pages.map((r) => r.query.get('after'))).toEqual([null, MEMBERS[99]]);
    const [row] = await withService(suite.db, (tx) => tx.query<{ audience: string; n: number }>(
      `select a.audience, (select count(*)::int from thread_members m where m.thread_id = $2) as n from artifacts a where a.workspace_id = $1 and a.origin_channel_id = $2`,
      [workspaceId, PRIVATE],
    ));
    expect(row).toEqual({ audience: privateKey, n: 150 });

    expect(await keys(GENERAL, ADA)).toContain(privateKey);
    expect(await keys(GENERAL, LAST)).toContain(privateKey);
    // Grace reads #help, the thread's parent, but is not in the thread.
    expect(await keys(HELP, GRACE)).not.toContain(privateKey);
    // A normal answer: only inside the thread, whoever asks.
    expect(await keys(HELP)).not.toContain(privateKey);
    expect(await keys(GENERAL)).not.toContain(privateKey);
    expect(await keys(PRIVATE)).toContain(privateKey);
  });

  it('a member who left stops counting at the next sync, and nothing is re-saved for it', async () => {
    history.setThreadMembers(PRIVATE, MEMBERS.slice(1));
    expect(await keys(GENERAL, ADA)).toContain(privateKey);
    expect(await pass()).toMatchObject({ saved: 0, unchanged: 1 });
    expect(await keys(GENERAL, ADA)).not.toContain(privateKey);
    expect(await keys(GENERAL, LAST)).toContain(privateKey);
  });

  it('without the GUILD_MEMBERS intent no member is known: the source stays inside the thread', async () => {
    history.setGuildMembersIntent(false);
    try {
      expect(await pass()).toMatchObject({ state: 'current', unchanged: 1 });
      expect(await keys(GENERAL, LAST)).not.toContain(privateKey);
      expect(await keys(PRIVATE)).toContain(privateKey);
    } finally {
      history.setGuildMembersIntent(true);
    }
  });
});
