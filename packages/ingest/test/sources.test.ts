import { beforeAll, expect, it } from 'vitest';
import { EVERYTHING, withService, withWorkspace } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { AppError } from '@brain/errors';
import { forgetSource, getSource, listSources, purgeForgottenSources, restoreSource, saveSource } from '../src/index.ts';
import { createWorkspace } from './helpers.ts';

describeDb('sources: list, get, forget, restore', (suite) => {
  let ws = '';
  let other = '';
  const ids: string[] = [];
  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'sources');
    other = await createWorkspace(suite.db, 'sources-other');
    for (let i = 0; i < 25; i++) {
      const { artifacts } = await saveSource(suite.db, { workspaceId: ws, input: { kind: 'text', text: `Note number ${i}` }, savedBy: 'u' });
      ids.push(artifacts[0]?.artifactId as string);
    }
    // Two live passages for the first note, as the worker would leave them.
    await withService(suite.db, (tx) =>
      tx.query(
        `insert into chunks (workspace_id, artifact_id, ordinal, content, content_hash, embedding, embedding_model, is_live)
         select $1, $2, g, 'p' || g, md5(g::text), array_fill(0.1, array[1536])::vector, 'm', true from generate_series(0, 1) g`,
        [ws, ids[0]],
      ),
    );
  });

  it('pages through every source exactly once, newest first, with the total', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listSources(suite.db, ws, { audience: EVERYTHING, limit: 10, cursor });
      expect(page.total).toBe(25);
      seen.push(...page.sources.map((s) => s.id));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(25);
    expect(new Set(seen)).toEqual(new Set(ids));
    expect((await listSources(suite.db, other, { audience: EVERYTHING })).sources).toEqual([]);
    await expect(listSources(suite.db, ws, { audience: EVERYTHING, cursor: 'garbage' })).rejects.toMatchObject({ code: 'CURSOR_INVALID' });
  });

  it('forgets a source out of answers with a receipt, and restores it', async () => {
    const receipt = await forgetSource(suite.db, ws, ids[0] as string, { audience: EVERYTHING });
    expect(receipt.passages).toBe(2);
    expect(receipt.restorableUntil.getTime() - receipt.forgottenAt.getTime()).toBe(30 * 86_400_000);
    const live = () =>
      withWorkspace(suite.db, ws, (tx) => tx.query<{ n: number }>('select count(*)::int as n from chunks where artifact_id = $1 and is_live', [ids[0]]));
    expect((await live())[0]?.n).toBe(0);
    expect((await listSources(suite.db, ws, { audience: EVERYTHING })).total).toBe(24);
    expect((await listSources(suite.db, ws, { audience: EVERYTHING, includeForgotten: true })).total).toBe(25);

    const error = await getSource(suite.db, ws, ids[0] as string, { audience: EVERYTHING }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('SOURCE_FORGOTTEN');
    expect((error as AppError).nextStep).toMatch(/Restore/);
    expect((await getSource(suite.db, ws, ids[0] as string, { includeForgotten: true, audience: EVERYTHING })).forgottenAt).not.toBeNull();

    expect(await restoreSource(suite.db, ws, ids[0] as string, { audience: EVERYTHING })).toMatchObject({ passages: 2 });
    expect((await live())[0]?.n).toBe(2);
    await expect(restoreSource(suite.db, ws, ids[0] as string, { audience: EVERYTHING })).rejects.toMatchObject({ code: 'SOURCE_NOT_FORGOTTEN' });
  });

  it("never reaches another workspace's source", async () => {
    await expect(getSource(suite.db, other, ids[1] as string, { audience: EVERYTHING })).rejects.toMatchObject({ code: 'SOURCE_NOT_FOUND' });
    await expect(forgetSource(suite.db, other, ids[1] as string, { audience: EVERYTHING })).rejects.toMatchObject({ code: 'SOURCE_NOT_FOUND' });
    await expect(getSource(suite.db, ws, 'not-a-uuid', { audience: EVERYTHING })).rejects.toMatchObject({ code: 'SOURCE_NOT_FOUND' });
  });

  it('deletes sources forgotten longer than 30 days, and only those', async () => {
    await forgetSource(suite.db, ws, ids[2] as string, { audience: EVERYTHING });
    await forgetSource(suite.db, ws, ids[3] as string, { audience: EVERYTHING });
    await withService(suite.db, (tx) => tx.query("update artifacts set forgotten_at = now() - interval '31 days' where id = $1", [ids[2]]));
    expect(await purgeForgottenSources(suite.db)).toBe(1);
    await expect(getSource(suite.db, ws, ids[2] as string, { includeForgotten: true, audience: EVERYTHING })).rejects.toMatchObject({ code: 'SOURCE_NOT_FOUND' });
    expect((await getSource(suite.db, ws, ids[3] as string, { includeForgotten: true, audience: EVERYTHING })).id).toBe(ids[3]);
  });
});
