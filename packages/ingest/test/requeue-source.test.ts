import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { EVERYTHING, withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { isAppError } from '@brain/errors';
import { forgetSource, getSource, requeueSource, saveSource } from '../src/index.ts';
import { createWorkspace, jobsFor } from './helpers.ts';

describeDb('re-indexing one source', (suite) => {
  let ws = '';
  let other = '';
  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'requeue');
    other = await createWorkspace(suite.db, 'requeue-other');
  });

  async function saved(text: string, workspaceId = ws): Promise<string> {
    const { artifacts } = await saveSource(suite.db, { workspaceId, input: { kind: 'text', text }, savedBy: 'u' });
    return artifacts[0]?.artifactId as string;
  }

  /** As the worker leaves a finished job and its source. */
  async function settle(artifactId: string, status: 'ready' | 'failed') {
    await withService(suite.db, (tx) =>
      tx.query(
        `with j as (update jobs set status = 'done', finished_at = now() where artifact_id = $1 and status = 'queued' returning 1)
         update artifacts set status = $2, error_code = case when $2 = 'failed' then 'FETCH_TIMEOUT' end,
           error_message = case when $2 = 'failed' then 'The page took too long.' end
         where id = $1`,
        [artifactId, status],
      ),
    );
  }

  const codeOf = (p: Promise<unknown>) => p.then(() => 'resolved', (e: unknown) => (isAppError(e) ? e.code : String(e)));

  it('queues one ingest job for a ready source and leaves it answering', async () => {
    const id = await saved('A ready note');
    await settle(id, 'ready');
    expect(await requeueSource(suite.db, ws, id)).toMatchObject({ id, queued: true });
    expect((await getSource(suite.db, ws, id, { audience: EVERYTHING })).status).toBe('ready');
    const jobs = await jobsFor(suite.db, id);
    expect(jobs.map((j) => [j.status, j.payload.reason])).toEqual([['done', 'save'], ['queued', 'reindex']]);
    // A second click while it is pending adds nothing.
    expect((await requeueSource(suite.db, ws, id)).queued).toBe(false);
    expect(await jobsFor(suite.db, id)).toHaveLength(2);
  });

  it('puts a failed source back in the queue with its error cleared', async () => {
    const id = await saved('A failing note');
    await settle(id, 'failed');
    expect((await getSource(suite.db, ws, id, { audience: EVERYTHING })).errorCode).toBe('FETCH_TIMEOUT');
    expect((await requeueSource(suite.db, ws, id)).queued).toBe(true);
    expect(await getSource(suite.db, ws, id, { audience: EVERYTHING })).toMatchObject({ status: 'queued', errorCode: null, errorMessage: null });
  });

  it('refuses a forgotten source, and a source of another workspace as not found', async () => {
    const forgotten = await saved('A forgotten note');
    await settle(forgotten, 'ready');
    await forgetSource(suite.db, ws, forgotten, { audience: EVERYTHING });
    expect(await codeOf(requeueSource(suite.db, ws, forgotten))).toBe('SOURCE_FORGOTTEN');

    const theirs = await saved('Their note', other);
    await settle(theirs, 'failed');
    expect(await codeOf(requeueSource(suite.db, ws, theirs))).toBe('SOURCE_NOT_FOUND');
    expect(await codeOf(requeueSource(suite.db, ws, randomUUID()))).toBe('SOURCE_NOT_FOUND');
    expect(await codeOf(requeueSource(suite.db, ws, 'nope'))).toBe('SOURCE_NOT_FOUND');
    expect((await getSource(suite.db, other, theirs, { audience: EVERYTHING })).status).toBe('failed');
    expect((await jobsFor(suite.db, theirs)).filter((j) => j.status === 'queued')).toEqual([]);
  });
});
