import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, pgliteThreadPort, type PgliteDatabase } from '../src/index.ts';
import { pgliteTemplate } from '../src/testing/index.ts';

// Another thread of the process (the answering thread) talks to the threaded database directly.
let db: PgliteDatabase;
const threads: Worker[] = [];
beforeAll(async () => {
  db = await openPglite({ loadDataDir: await pgliteTemplate(), thread: true });
  await db.exec('create table items (id int primary key, label text not null unique)');
});
afterAll(async () => {
  await Promise.all(threads.map((t) => t.terminate()));
  await db?.close();
});

function connectionThread(): Worker {
  const port = pgliteThreadPort(db);
  if (!port) throw new Error('expected a threaded database');
  const thread = new Worker(new URL('./fixtures/connection-thread.mjs', import.meta.url), { workerData: { port }, transferList: [port] });
  threads.push(thread);
  return thread;
}
const ask = async (thread: Worker, message: unknown): Promise<Record<string, unknown>> => {
  thread.postMessage(message);
  const [reply] = (await once(thread, 'message')) as [Record<string, unknown>];
  return reply;
};

describe('a connection to the threaded database from another thread', () => {
  it('has no port for a database that is not in a thread', async () => {
    const inProcess = await openPglite({ loadDataDir: await pgliteTemplate() });
    expect(pgliteThreadPort(inProcess)).toBeUndefined();
    await inProcess.close();
  });

  it('reads what the owner wrote, and its errors keep their SQLSTATE', async () => {
    const thread = connectionThread();
    await db.query("insert into items (id, label) values (1, 'one')");
    expect(await ask(thread, { op: 'query', text: 'select label from items where id = $1', params: [1] })).toEqual({ rows: [{ label: 'one' }] });
    expect(await ask(thread, { op: 'query', text: "insert into items (id, label) values (2, 'one')", params: [] })).toMatchObject({ error: { code: '23505' } });
  });

  it("serialises with the owner: the owner's statements wait for the connection's open transaction", async () => {
    const thread = connectionThread();
    expect(await ask(thread, { op: 'hold', id: 10, label: 'ten' })).toEqual({ held: true });
    // Run inside the connection's open transaction (one PGlite session), it would see the row.
    const owner = db.query('select count(*)::int as n from items where id = 10');
    expect(await ask(thread, 'rollback')).toEqual({ end: 'rolled back' });
    expect(await owner).toEqual([{ n: 0 }]);
  });

  it('rolls back the open transaction of a thread that went away, and the owner goes on', async () => {
    const thread = connectionThread();
    expect(await ask(thread, { op: 'open-and-exit', id: 20, label: 'twenty' })).toEqual({ held: true });
    await thread.terminate();
    expect(await db.query('select count(*)::int as n from items where id = 20')).toEqual([{ n: 0 }]);
  });
});
