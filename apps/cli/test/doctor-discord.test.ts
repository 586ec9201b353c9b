import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withService } from '@brain/db';
import { addSyncedChannel } from '@brain/discord';
import { createLogger } from '@brain/observability';
import { fakeMessage, snowflakeAt, startFakeDiscordHistory, type FakeDiscordHistory } from '@brain/testkit';
import { runDoctor, type DoctorReport } from '../src/doctor/run-doctor.ts';
import { seededDataDir } from './brain-process.ts';

// brain doctor's Discord checks against the fake REST: the bot token (GET /users/@me), then one
// message read in each synced channel, with what each refusal means and how to fix it.
const logger = createLogger({ level: 'silent' });
const TOKEN = 'doctor-bot-token';
const GUILD = '970000000000000001';
const HELP = '970000000000000002';
const STAFF = '970000000000000003';
const QUIET = '970000000000000004';
const FORUM = '970000000000000005';
const t0 = Date.parse('2026-11-30T09:00:00Z');

const check = (report: DoctorReport, id: string) => {
  const found = report.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
};

describe('brain doctor: the bot token and the synced channels', () => {
  let discord: FakeDiscordHistory;
  let dataDir: string;
  const doctor = (extra: Record<string, string> = {}) =>
    runDoctor({ env: { BRAIN_DATA_DIR: dataDir, DISCORD_BOT_TOKEN: TOKEN, DISCORD_API_BASE: discord.apiBase, ...extra }, cwd: dataDir, logger, timeoutMs: 3_000 });

  beforeAll(async () => {
    discord = await startFakeDiscordHistory({ botToken: TOKEN });
    let n = 0;
    const say = (channelId: string, content: string) => discord.addMessages(channelId, [fakeMessage({ id: snowflakeAt(t0 + ++n * 1000), channelId, author: 'Ada', content })]);
    discord.createChannel(HELP, { guildId: GUILD, name: 'help' });
    say(HELP, 'The VPN gateway is vpn-east.example.org.');
    discord.createChannel(STAFF, { guildId: GUILD, name: 'staff' });
    say(STAFF, 'Salaries are reviewed in March.');
    discord.createChannel(QUIET, { guildId: GUILD, name: 'quiet' });
    say(QUIET, 'Only readers with history see this.');
    discord.createChannel(FORUM, { guildId: GUILD, name: 'support', type: 15 });
    const post = snowflakeAt(t0 + ++n * 1000);
    discord.createThread(post, { parentId: FORUM, name: 'Login loop' });
    discord.addMessages(post, [fakeMessage({ id: post, channelId: post, author: 'Ken', content: 'Safari loops on login.' })]);
    dataDir = await seededDataDir(async (db) => {
      const [ws] = await withService(db, (tx) => tx.query<{ id: string }>("insert into workspaces (slug, guild_id) values ('doctor', $1) returning id", [GUILD]));
      for (const [channelId, channelName, kind] of [[HELP, 'help', 'text'], [FORUM, 'support', 'forum']] as const) {
        await addSyncedChannel(db, { workspaceId: ws?.id as string, guildId: GUILD, channelId, channelName, kind, pinsOnly: false, addedBy: 'test' });
      }
    }, 'brain-doctor-discord-');
  }, 60_000);

  afterAll(async () => {
    await discord?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('passes a token Discord accepts and channels it can read with their content, a forum through its newest post', async () => {
    const report = await doctor();
    expect(check(report, 'discord-bot-token')).toMatchObject({ status: 'pass', detail: expect.stringContaining('company-brain') });
    expect(check(report, 'discord-synced-channels')).toMatchObject({ status: 'pass', detail: 'read a message in each of 2 channel(s), with its content' });
    expect(discord.requests.some((r) => r.path === '/api/v10/users/@me')).toBe(true);
  }, 60_000);

  it('fails a token Discord rejects, with where to reset it, and does not probe channels with it', async () => {
    const before = discord.requests.length;
    const report = await doctor({ DISCORD_BOT_TOKEN: 'stale-token' });
    expect(check(report, 'discord-bot-token')).toMatchObject({ status: 'fail', detail: expect.stringContaining('401'), nextStep: expect.stringContaining('Reset Token') });
    expect(check(report, 'discord-synced-channels').status).toBe('skip');
    expect(discord.requests.slice(before).map((r) => r.path)).toEqual(['/api/v10/users/@me']);
    expect(report.ok).toBe(false);
  }, 60_000);

  it('names the permission a channel lacks: View Channel on a 403, Read Message History on an empty answer', async () => {
    const db = await import('@brain/db').then((m) => m.openPglite({ dataDir: `${dataDir}/pgdata` }));
    try {
      const [ws] = await withService(db, (tx) => tx.query<{ id: string }>("select id from workspaces where slug = 'doctor'"));
      for (const [channelId, channelName] of [[STAFF, 'staff'], [QUIET, 'quiet']] as const) {
        await addSyncedChannel(db, { workspaceId: ws?.id as string, guildId: GUILD, channelId, channelName, kind: 'text', pinsOnly: false, addedBy: 'test' });
      }
    } finally {
      await db.close();
    }
    discord.setForbidden(STAFF, true);
    discord.channel(QUIET).historyHidden = true;
    const report = await doctor();
    const channels = check(report, 'discord-synced-channels');
    expect(channels.status).toBe('fail');
    expect(channels.detail).toContain('2 of 4 channel(s) cannot be read as a sync needs (2 fine)');
    expect(channels.detail).toContain('#staff: Discord answers 403 Missing Access: the bot lacks View Channel');
    expect(channels.detail).toContain('#quiet: Discord returned no message although the channel has some: the bot lacks Read Message History');
    expect(channels.nextStep).toContain('View Channel and Read Message History');
  }, 60_000);

  it('says the Message Content intent is off, and how to switch it on, when a message arrives empty', async () => {
    discord.setForbidden(STAFF, false);
    discord.channel(QUIET).historyHidden = false;
    discord.setMessageContentIntent(false);
    try {
      const channels = check(await doctor(), 'discord-synced-channels');
      expect(channels.status).toBe('fail');
      expect(channels.detail).toContain('#help: its newest message arrived without any content: the Message Content intent is off');
      expect(channels.nextStep).toContain('Privileged Gateway Intents, switch on Message Content Intent');
    } finally {
      discord.setMessageContentIntent(true);
    }
  }, 60_000);
});
