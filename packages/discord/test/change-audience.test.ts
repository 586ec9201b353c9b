/** /audience's query: an admin widens or narrows a source, recorded in audience_changes; a later save keeps the admin's choice. */
import { expect, it } from 'vitest';
import { audienceKeys, withService, withWorkspace } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { saveSource } from '@brain/ingest';
import { changeAudience } from '../src/queries/change-audience.ts';

const STAFF = '900000000000000002';
const GENERAL = '900000000000000001';
const origin = (channelId: string) => ({ guildId: '900000000000000000', channelId, thread: false, parentId: null, privateThread: false });

describeDb('changing a source’s audience', (suite) => {
  it('moves a source the admin can see, records it, and keeps it through a later save', async () => {
    const [ws] = await withService(suite.db, (tx) => tx.query<{ id: string }>("insert into workspaces (slug) values ('aud') returning id"));
    const workspaceId = (ws as { id: string }).id;
    const input = { kind: 'text' as const, text: 'The staff rota for the holiday week.', title: 'Rota' };
    const saved = await saveSource(suite.db, { workspaceId, input, savedBy: 'discord:1', origin: origin(STAFF) });
    const id = saved.artifacts[0]?.artifactId as string;

    // An admin who cannot read #staff cannot move its source: not found, nothing recorded.
    expect(await changeAudience(suite.db, workspaceId, id, 'workspace', 'discord:2', audienceKeys(['workspace', `channel:${GENERAL}`]))).toBeUndefined();
    const moved = await changeAudience(suite.db, workspaceId, id, 'workspace', 'discord:3', audienceKeys(['workspace', `channel:${STAFF}`]));
    expect(moved).toMatchObject({ from: `channel:${STAFF}`, to: 'workspace', title: 'Rota' });

    await withWorkspace(suite.db, workspaceId, async (tx) => {
      const changes = await tx.query<{ changed_by: string; from_audience: string; to_audience: string }>(
        'select changed_by, from_audience, to_audience from audience_changes where artifact_id = $1',
        [id],
      );
      expect(changes).toEqual([{ changed_by: 'discord:3', from_audience: `channel:${STAFF}`, to_audience: 'workspace' }]);
    });
    // Saved again from #staff: the admin's choice stands.
    await saveSource(suite.db, { workspaceId, input, savedBy: 'discord:1', origin: origin(STAFF) });
    const [row] = await withWorkspace(suite.db, workspaceId, (tx) => tx.query<{ audience: string }>('select audience from artifacts where id = $1', [id]));
    expect(row?.audience).toBe('workspace');
  });

  it('lets any admin place a source of unknown audience', async () => {
    const [ws] = await withService(suite.db, (tx) => tx.query<{ id: string }>("insert into workspaces (slug) values ('aud2') returning id"));
    const workspaceId = (ws as { id: string }).id;
    const saved = await saveSource(suite.db, { workspaceId, input: { kind: 'text', text: 'Legacy note', title: 'Old' }, savedBy: 'discord:1' });
    const id = saved.artifacts[0]?.artifactId as string;
    await withWorkspace(suite.db, workspaceId, (tx) => tx.query("update artifacts set audience = 'unknown' where id = $1", [id]));
    expect(await changeAudience(suite.db, workspaceId, id, `channel:${GENERAL}`, 'discord:3', audienceKeys(['workspace']))).toMatchObject({ from: 'unknown', to: `channel:${GENERAL}` });
  });
});
