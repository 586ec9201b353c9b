/**
 * An edit or delete of a synced channel's own message (outside its threads) reaches the brain in
 * seconds, not at the next 15-minute pass: the Gateway queues a pass over just the day the message
 * was posted on (sync_channel_days), later edits join that queued pass, and the pass reads only
 * that day's span of ids and the pins: no thread lists, no other day, and the channel's own last
 * sync and progress stay as the last full pass left them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createLogger } from '@brain/observability';
import { fakeMessage, snowflakeAt, startFakeDiscordHistory, type FakeDiscordHistory } from '@brain/testkit';
import { createGatewayEvents } from '../src/gateway/gateway-events.ts';
import { createDiscordHistory } from '../src/history/discord-history.ts';
import { addSyncedChannel } from '../src/sync/add-synced-channel.ts';
import { createSyncRunner } from '../src/sync/sync-runner.ts';
import { syncChannel } from '../src/sync/sync-channel.ts';

const GUILD = '750000000000000001';
const HELP = '750000000000000002';
const OTHER = '750000000000000003';
const at = (iso: string) => snowflakeAt(Date.parse(iso));
const MONDAY = { first: at('2026-11-23T09:00:00Z'), second: at('2026-11-23T17:30:00Z') };
const TUESDAY = at('2026-11-24T08:00:00Z');
const THREAD = at('2026-11-23T10:00:00Z');
const IN_THREAD = at('2026-11-23T10:05:00Z');
const logger = createLogger({ level: 'silent' });

describeDb('edits in a synced channel’s days', (suite) => {
  let fake: FakeDiscordHistory;
  let workspaceId = '';
  let syncedChannelId = '';
  let onDispatch: ReturnType<typeof createGatewayEvents>;
  const reader = () => createDiscordHistory({ apiBase: fake.apiBase, botToken: 'bot-token' });

  const sources = async () =>
    new Map(
      (
        await withService(suite.db, (tx) =>
          tx.query<{ source_key: string; fingerprint: string; message_ids: string[]; gone: boolean; forgotten: boolean; artifact_forgotten: boolean }>(
            `select s.source_key, s.fingerprint, s.message_ids, s.gone, s.forgotten, a.forgotten_at is not null as artifact_forgotten
             from synced_sources s left join artifacts a on a.id = s.artifact_id where s.workspace_id = $1`,
            [workspaceId],
          ),
        )
      ).map((r) => [r.source_key, r]),
    );
  const dayJobs = () =>
    withService(suite.db, (tx) =>
      tx.query<{ id: string; payload: { synced_channel_id: string; days: string[] }; status: string }>(
        "select id, payload, status from jobs where workspace_id = $1 and task = 'sync_channel_days' order by created_at",
        [workspaceId],
      ),
    );
  const channelRow = async () =>
    (await withService(suite.db, (tx) => tx.query<{ last_synced_at: Date; checkpoint: unknown; message_count: number }>('select last_synced_at, checkpoint, message_count from synced_channels where id = $1', [syncedChannelId])))[0];
  const mondayKey = `discord-channel-day:${GUILD}/${HELP}/2026-11-23`;
  const tuesdayKey = `discord-channel-day:${GUILD}/${HELP}/2026-11-24`;
  const threadKey = `discord-thread:${GUILD}/${THREAD}`;

  beforeAll(async () => {
    fake = await startFakeDiscordHistory();
    fake.createChannel(HELP, { guildId: GUILD, name: 'help' });
    fake.createChannel(OTHER, { guildId: GUILD, name: 'random' });
    fake.addMessages(HELP, [
      fakeMessage({ id: MONDAY.first, channelId: HELP, author: 'Ada', content: 'The staging database restarts at 02:00 UTC.' }),
      fakeMessage({ id: THREAD, channelId: HELP, author: 'Linus', content: 'VPN question' }),
      fakeMessage({ id: MONDAY.second, channelId: HELP, author: 'Grace', content: 'Badges are printed at the front desk.' }),
      fakeMessage({ id: TUESDAY, channelId: HELP, author: 'Ken', content: 'The all-hands moved to room Everest.' }),
    ]);
    fake.createThread(THREAD, { parentId: HELP, name: 'VPN from home' });
    fake.addMessages(THREAD, [fakeMessage({ id: IN_THREAD, channelId: THREAD, author: 'Margaret', content: 'The VPN gateway listens on port 8443.' })]);
    fake.pin(HELP, MONDAY.second, '2026-11-23T18:00:00.000Z');
    const [ws] = await withService(suite.db, (tx) => tx.query<{ id: string }>("insert into workspaces (slug, guild_id) values ('day-edits', $1) returning id", [GUILD]));
    workspaceId = ws?.id as string;
    const { channel } = await addSyncedChannel(suite.db, { workspaceId, guildId: GUILD, channelId: HELP, channelName: 'help', kind: 'text', pinsOnly: false, addedBy: 'test' });
    syncedChannelId = channel.id;
    const full = await syncChannel(suite.db, reader(), { workspaceId, syncedChannelId, runId: randomUUID() });
    expect(full).toMatchObject({ state: 'current', saved: 4 });
    onDispatch = createGatewayEvents({ db: suite.db, logger, history: reader(), botUserId: () => '750000000000000999' });
  });
  afterAll(() => fake.close());

  it('queues one pass for the edited day, gathers a later delete’s day into it, and ignores threads and unsynced channels', async () => {
    fake.editMessage(HELP, MONDAY.first, 'The staging database restarts at 03:00 UTC.');
    await onDispatch({ t: 'MESSAGE_UPDATE', d: { id: MONDAY.first, channel_id: HELP, guild_id: GUILD, author: { id: '750000000000000100' }, content: 'The staging database restarts at 03:00 UTC.' } });
    fake.deleteMessage(HELP, TUESDAY);
    await onDispatch({ t: 'MESSAGE_DELETE', d: { id: TUESDAY, channel_id: HELP, guild_id: GUILD } });
    // An edit inside a thread is the thread refresher's; one in a channel nobody synced, nobody's.
    await onDispatch({ t: 'MESSAGE_UPDATE', d: { id: IN_THREAD, channel_id: THREAD, guild_id: GUILD, author: { id: '750000000000000101' } } });
    await onDispatch({ t: 'MESSAGE_DELETE', d: { id: at('2026-11-20T08:00:00Z'), channel_id: OTHER, guild_id: GUILD } });
    const jobs = await dayJobs();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ status: 'queued', payload: { synced_channel_id: syncedChannelId, days: ['2026-11-23', '2026-11-24'] } });
  });

  it('reads only those days and the pins, saves the edit, forgets the emptied day, and leaves the rest alone', async () => {
    const before = await sources();
    const channelBefore = await channelRow();
    const [job] = await dayJobs();
    const requestsBefore = fake.requests.length;
    const outcome = await createSyncRunner(suite.db, reader())({ id: job?.id as string, workspaceId, payload: job?.payload as unknown as Record<string, unknown> }, new AbortController().signal);
    expect(outcome).toMatchObject({ state: 'current', saved: 1, forgotten: 1 });

    const paths = fake.requests.slice(requestsBefore).map((r) => r.path);
    expect(paths.some((p) => p.includes('threads'))).toBe(false);
    expect(paths.some((p) => p.includes(THREAD))).toBe(false);
    // Each day read from just before its first possible id: nothing from the channel's start.
    const afters = fake.requests.slice(requestsBefore).map((r) => r.query.get('after')).filter((a): a is string => a !== null);
    expect(afters.length).toBeGreaterThan(0);
    expect(afters.every((a) => BigInt(a) >= BigInt(at('2026-11-23T00:00:00Z')) - 1n)).toBe(true);

    const after = await sources();
    expect(after.get(mondayKey)?.fingerprint).not.toBe(before.get(mondayKey)?.fingerprint);
    expect(after.get(mondayKey)?.message_ids).toEqual(before.get(mondayKey)?.message_ids);
    expect(after.get(mondayKey)?.message_ids).toContain(MONDAY.first);
    expect(after.get(tuesdayKey)).toMatchObject({ gone: true, artifact_forgotten: true });
    expect(after.get(threadKey)).toEqual(before.get(threadKey));
    const pinKey = [...after.keys()].find((k) => k.endsWith(`/${HELP}/${MONDAY.second}`)) as string;
    expect(after.get(pinKey)).toMatchObject({ gone: false, forgotten: false });

    const channelAfter = await channelRow();
    expect(channelAfter?.last_synced_at).toEqual(channelBefore?.last_synced_at);
    expect(channelAfter?.checkpoint).toEqual(channelBefore?.checkpoint);
    expect(channelAfter?.message_count).toBe((channelBefore?.message_count ?? 0) - 1);
  });
});
