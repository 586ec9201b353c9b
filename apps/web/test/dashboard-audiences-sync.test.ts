import { afterAll, beforeAll, expect, it } from 'vitest';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { insertQuestions, insertSources, type SeededSource } from '@brain/insights/testing';
import { browserFor, claimedWorkspace, csrfOf, logIn, type Browser } from './dashboard-harness.ts';
import { startHarness, type Harness } from './onboarding-harness.ts';

const HELP = '200000000000000001';
const STAFF = '200000000000000002';
const GONE = '200000000000000003';
const ANNOUNCEMENTS = '200000000000000004';
const CATEGORY = '200000000000000005';

describeDb('the dashboard: synced channels and source audiences', (suite) => {
  let h: Harness;
  let a: string;
  let b: string;
  let note: SeededSource;
  let other: SeededSource;
  let owner: Browser;

  beforeAll(async () => {
    h = await startHarness(suite.db);
    a = await claimedWorkspace(suite.db, 'syncteam', 'sam@example.com');
    b = await claimedWorkspace(suite.db, 'otherteam', 'oz@example.com');
    [note] = (await insertSources(suite.db, a, [{ title: 'Staff rota', passages: 1 }])) as [SeededSource];
    [other] = (await insertSources(suite.db, b, [{ title: 'Other team plans', passages: 1 }])) as [SeededSource];
    await withService(suite.db, async (tx) => {
      await tx.query('update artifacts set audience = $2 where id = $1', [note.artifactId, `channel:${STAFF}`]);
      const row = (channel: string, name: string, state: string, extra: Record<string, unknown>) =>
        tx.query(
          `insert into synced_channels (workspace_id, guild_id, channel_id, channel_name, kind, state, pause_code, pause_reason, checkpoint, message_count, source_count, last_synced_at, added_by)
           values ($1, '100', $2, $3, 'text', $4, $5, $6, $7::jsonb, $8, $9, $10, 'discord:1')`,
          [a, channel, name, state, extra.code ?? null, extra.reason ?? null, JSON.stringify(extra.checkpoint ?? {}), extra.messages ?? 0, extra.sources ?? 0, extra.at ?? null],
        );
      await row(HELP, 'help', 'backfilling', { checkpoint: { run: 'r', total: 8, done: 3 }, messages: 120, sources: 3 });
      await row(STAFF, 'staff', 'current', { messages: 4200, sources: 61, at: new Date('2026-11-30T10:00:00Z') });
      await row(GONE, 'old-news', 'paused', { code: 'DISCORD_MISSING_ACCESS', reason: 'The bot lost View Channel here: give it back, then /sync add again.', messages: 7, sources: 1 });
    });
    await insertQuestions(suite.db, a, [{ question: 'Who is on call?', grounded: false, retrieved: [], latency: { total: 3 } }]);
    owner = browserFor(h);
    await logIn(h, owner, 'sam@example.com', 'syncteam');
  });
  afterAll(() => h.close());

  it('shows each synced channel’s state (backfilling with a percentage, current, paused with its reason), counts and last sync', async () => {
    const page = (await owner.get('/dashboard/sources')).body;
    const rowOf = (id: string) => page.slice(page.indexOf(`data-channel-id="${id}"`), page.indexOf('</tr>', page.indexOf(`data-channel-id="${id}"`)));
    expect(rowOf(HELP)).toContain('backfilling 37 %');
    expect(rowOf(HELP)).toContain('#help');
    expect(rowOf(STAFF)).toContain('current');
    expect(rowOf(STAFF)).toContain('4,200');
    expect(rowOf(STAFF)).toContain('61');
    expect(rowOf(STAFF)).toContain('2026');
    expect(rowOf(GONE)).toContain('paused');
    expect(rowOf(GONE)).toContain('The bot lost View Channel here');
    expect(rowOf(GONE)).toContain('not yet');
  });

  it('shows each source’s audience, and the admin widens it then narrows it, each change recorded like /audience', async () => {
    let page = (await owner.get('/dashboard/sources')).body;
    const row = () => page.slice(page.indexOf(`data-source-id="${note.artifactId}"`));
    expect(row()).toContain('Cited to readers of #staff');
    const csrf = csrfOf(page, `/dashboard/sources/${note.artifactId}/audience`);
    const widen = await owner.post(`/dashboard/sources/${note.artifactId}/audience`, { csrf, to: 'workspace' });
    expect(widen.headers.location).toBe('/dashboard/sources?done=audience-changed');
    page = (await owner.get('/dashboard/sources')).body;
    expect(row()).toContain('Cited to everyone in the server');
    await owner.post(`/dashboard/sources/${note.artifactId}/audience`, { csrf, to: `channel:${HELP}` });
    const changes = await withService(suite.db, (tx) =>
      tx.query<{ changed_by: string; from_audience: string; to_audience: string }>(
        'select changed_by, from_audience, to_audience from audience_changes where artifact_id = $1 order by changed_at, id',
        [note.artifactId],
      ),
    );
    expect(changes).toEqual([
      { changed_by: 'dashboard:sam@example.com', from_audience: `channel:${STAFF}`, to_audience: 'workspace' },
      { changed_by: 'dashboard:sam@example.com', from_audience: 'workspace', to_audience: `channel:${HELP}` },
    ]);
    const [art] = await withService(suite.db, (tx) => tx.query<{ audience: string }>('select audience from artifacts where id = $1', [note.artifactId]));
    expect(art?.audience).toBe(`channel:${HELP}`);
  });

  it('refuses a change without this session’s CSRF token, an audience that is not one, and another workspace’s source', async () => {
    const page = (await owner.get('/dashboard/sources')).body;
    const csrf = csrfOf(page, `/dashboard/sources/${note.artifactId}/audience`);
    expect((await owner.post(`/dashboard/sources/${note.artifactId}/audience`, { csrf: 'forged', to: 'workspace' })).statusCode).toBe(403);
    expect((await owner.post(`/dashboard/sources/${note.artifactId}/audience`, { csrf, to: 'unknown' })).statusCode).toBe(400);
    expect((await owner.post(`/dashboard/sources/${note.artifactId}/audience`, { csrf, to: 'channel:abc' })).statusCode).toBe(400);
    const foreign = await owner.post(`/dashboard/sources/${other.artifactId}/audience`, { csrf, to: `channel:${HELP}` });
    expect(foreign.headers.location).toBe('/dashboard/sources?done=audience-unchanged');
    const [art] = await withService(suite.db, (tx) => tx.query<{ audience: string }>('select audience from artifacts where id = $1', [other.artifactId]));
    expect(art?.audience).toBe('workspace');
    // A foreign Host (DNS rebinding) gets nothing, the form included.
    const rebound = await h.app.inject({ method: 'POST', url: `/dashboard/sources/${note.artifactId}/audience`, headers: { host: 'rebind.attacker.example' }, payload: { csrf, to: 'workspace' } });
    expect(rebound.statusCode).toBe(421);
  });

  it('offers every channel of the guild the bot can view, from the stored guild facts, not only those with sources', async () => {
    const optionsOf = (page: string) => {
      const form = page.slice(page.indexOf(`/dashboard/sources/${note.artifactId}/audience`));
      return form.slice(0, form.indexOf('</select>'));
    };
    expect(optionsOf((await owner.get('/dashboard/sources')).body)).not.toContain(ANNOUNCEMENTS);
    const channels = [
      { id: CATEGORY, type: 4, name: 'Staff area', parent_id: null, permission_overwrites: [] },
      { id: ANNOUNCEMENTS, type: 5, name: 'announcements', parent_id: CATEGORY, permission_overwrites: [] },
    ];
    await withService(suite.db, (tx) =>
      tx.query("insert into guild_facts (workspace_id, guild_id, owner_id, roles, channels, fetched_at) values ($1, '100', '1', '[]', $2::jsonb, now())", [a, JSON.stringify(channels)]),
    );
    const options = optionsOf((await owner.get('/dashboard/sources')).body);
    expect(options).toContain(`value="channel:${ANNOUNCEMENTS}"`);
    expect(options).toContain('#announcements');
    // A category holds no messages: nothing can be saved from it.
    expect(options).not.toContain(CATEGORY);
  });

  it('shows on the questions page the audience each answer could cite', async () => {
    await withService(suite.db, (tx) => tx.query(`update queries set audience = '{"kind":"keys","keys":["workspace","channel:${STAFF}"]}'::jsonb where workspace_id = $1`, [a]));
    const page = (await owner.get('/dashboard/questions')).body;
    expect(page).toContain('Audience: everyone in the server, readers of #');
    expect(page).toContain(STAFF);
  });
});
