import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '@brain/errors';
import { waitUntil } from '@brain/testkit';
import { openDatabase, openPglite, sqlState, SqlState, type PgliteDatabase } from '../src/index.ts';
import { workerOf } from '../src/pglite-thread/open-pglite-thread.ts';
import { pgliteTemplate } from '../src/testing/index.ts';

// The threaded driver against in-process PGlite, the behaviour every caller was written for.
let threaded: PgliteDatabase;
let inProcess: PgliteDatabase;
// What the threaded database passed to onNotice (its own test: one more thread would cost a database start).
const notices: string[] = [];
beforeAll(async () => {
  const template = await pgliteTemplate();
  threaded = await openPglite({ loadDataDir: template, thread: true, onNotice: (m) => notices.push(m) });
  inProcess = await openPglite({ loadDataDir: template });
  for (const db of [threaded, inProcess]) await db.exec('create table items (id int primary key, label text not null unique, body bytea)');
});
afterAll(async () => {
  await threaded?.close();
  await inProcess?.close();
});

const VALUES = `select 42::int as i, 9007199254740993::bigint as big, 2::bigint as small, 1.5::float8 as f, 12.34::numeric as num,
  true as yes, null::text as nothing, '2026-01-02T03:04:05.678Z'::timestamptz as at, '2026-01-02'::date as day,
  $1::bytea as bytes, $2::jsonb as doc, $3::uuid[] as ids, array[1, 2, 3] as ints, '[0.5,1,2]'::vector as vec,
  $4::text as echoed`;
const PARAMS = [Buffer.from([0, 1, 254, 255]), '{"a":[1,{"b":null}]}', ['00000000-0000-0000-0000-000000000001'], 'plain'];

describe('PGlite in a worker thread', () => {
  it('returns every kind of value exactly as in-process PGlite does', async () => {
    const [there] = await threaded.query(VALUES, PARAMS);
    const [here] = await inProcess.query(VALUES, PARAMS);
    expect(there).toEqual(here);
    expect(there?.bytes).toBeInstanceOf(Uint8Array);
    expect(there?.at).toBeInstanceOf(Date);
    expect(there?.vec).toBe('[0.5,1,2]');
  });

  it('rejects with the same error class and every field PostgreSQL sent (SQLSTATE, constraint, detail)', async () => {
    const failure = async (db: PgliteDatabase) => {
      await db.query("insert into items (id, label) values (1, 'one') on conflict do nothing");
      return db.query("insert into items (id, label) values (2, 'one')").then(
        () => undefined,
        (error: unknown) => error as Error & Record<string, unknown>,
      );
    };
    const there = await failure(threaded);
    const here = await failure(inProcess);
    expect(sqlState(there)).toBe(SqlState.uniqueViolation);
    expect(there?.constructor).toBe(here?.constructor);
    expect(there?.constraint).toBe('items_label_key');
    expect(there?.detail).toBe('Key (label)=(one) already exists.');
    const fields = ['message', 'code', 'severity', 'detail', 'constraint', 'table', 'schema', 'routine', 'query'];
    for (const field of fields) expect(there?.[field], field).toEqual(here?.[field]);
  });

  it('commits a transaction when its function resolves, and rolls it back, rethrowing the caller’s own error, when it throws', async () => {
    const mine = new Error('changed my mind');
    const rolledBack = await threaded
      .transaction(async (tx) => {
        await tx.query("insert into items (id, label) values (10, 'ten')");
        expect(await tx.query('select id from items where id = 10')).toEqual([{ id: 10 }]);
        throw mine;
      })
      .catch((error: unknown) => error);
    expect(rolledBack).toBe(mine);
    expect(await threaded.query('select id from items where id = 10')).toEqual([]);

    const value = await threaded.transaction(async (tx) => {
      await tx.query("insert into items (id, label) values (11, 'eleven')");
      return 'done';
    });
    expect(value).toBe('done');
    expect(await threaded.query('select id from items where id = 11')).toEqual([{ id: 11 }]);
  });

  it('rolls back a transaction whose statement failed, with the database error and its code', async () => {
    const error = await threaded
      .transaction(async (tx) => {
        await tx.query("insert into items (id, label) values (12, 'twelve')");
        await tx.query("insert into items (id, label) values (13, 'twelve')");
      })
      .catch((e: unknown) => e);
    expect(sqlState(error)).toBe(SqlState.uniqueViolation);
    expect(await threaded.query('select id from items where id in (12, 13)')).toEqual([]);
  });

  it('keeps a transaction exclusive: statements issued meanwhile wait for its commit', async () => {
    const order: string[] = [];
    const tx = threaded.transaction(async (t) => {
      for (let i = 20; i < 30; i++) await t.query('insert into items (id, label) values ($1, $2)', [i, `n${i}`]);
      order.push('tx');
      return t.query<{ n: number }>('select count(*)::int as n from items where id between 20 and 29');
    });
    const outside = threaded.query<{ n: number }>('select count(*)::int as n from items where id between 20 and 29').then((r) => (order.push('outside'), r));
    expect((await tx)[0]?.n).toBe(10);
    expect((await outside)[0]?.n).toBe(10);
    expect(order).toEqual(['tx', 'outside']);
  });

  it('refuses statements on a transaction that has ended', async () => {
    let leaked: { query: (text: string) => Promise<unknown> } | undefined;
    await threaded.transaction(async (tx) => {
      leaked = tx;
    });
    await expect(leaked?.query('select 1')).rejects.toThrow(/Transaction is closed/);
  });

  it('delivers NOTIFY payloads to listeners, and stops after unlisten', async () => {
    const got: string[] = [];
    const unlisten = await threaded.listen('jobs_ready', (payload) => got.push(payload));
    await threaded.query("select pg_notify('jobs_ready', 'first')");
    await threaded.transaction((tx) => tx.query("select pg_notify('jobs_ready', 'on commit')"));
    await expect.poll(() => got, { timeout: 5_000 }).toEqual(['first', 'on commit']);
    await unlisten();
    await threaded.query("select pg_notify('jobs_ready', 'after')");
    await threaded.query('select 1');
    expect(got).toEqual(['first', 'on commit']);
  });

  it('passes NOTICE messages to onNotice', async () => {
    const before = notices.length;
    await threaded.exec("do $$ begin raise notice 'from the thread'; end $$");
    expect(notices.slice(before)).toEqual(['from the thread']);
  });

  it('keeps this thread free while a long statement runs', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      const started = Date.now();
      // pg_sleep keeps the database's thread busy for as long on any machine (a row count took
      // seconds of CPU on a slow one, and might be too short on a fast one).
      await threaded.query('select pg_sleep(0.3)');
      const elapsed = Date.now() - started;
      // In-process PGlite runs the statement on this thread: not one tick fires until it ends.
      expect(elapsed).toBeGreaterThan(50);
      expect(ticks).toBeGreaterThan(2);
    } finally {
      clearInterval(timer);
    }
  });

  it('dumps a data directory that loads into a fresh threaded database', async () => {
    const dump = await threaded.dumpDataDir();
    const copy = await openPglite({ loadDataDir: dump, thread: true });
    try {
      expect(await copy.query('select id from items where id = 11')).toEqual([{ id: 11 }]);
    } finally {
      await copy.close();
    }
  });
});

describe('a crash of the database thread', () => {
  it('rejects the statements in flight and every later one with a clear error instead of hanging', async () => {
    // From the migrated template: what dies is the thread, not a first run (an initdb costs more).
    const db = await openPglite({ thread: true, loadDataDir: await pgliteTemplate() });
    const worker = workerOf.get(db);
    const before = worker?.performance.eventLoopUtilization();
    const inFlight = db.query('select pg_sleep(5)');
    // The thread is idle but for this statement: 100 ms of work since it was sent means it is running it.
    await waitUntil(() => (worker?.performance.eventLoopUtilization(before).active ?? 0) > 100, { what: 'the thread to be running pg_sleep' });
    await worker?.terminate();
    const error = (await inFlight.catch((e: unknown) => e)) as AppError;
    expect(error.code).toBe('DB_THREAD_DIED');
    expect(error.message).toMatch(/thread stopped/);
    expect(error.nextStep).toMatch(/BRAIN_PGLITE_THREAD=off/);
    await expect(db.query('select 1')).rejects.toMatchObject({ code: 'DB_THREAD_DIED' });
    await expect(db.transaction((tx) => tx.query('select 1'))).rejects.toMatchObject({ code: 'DB_THREAD_DIED' });
    await db.close();
  });
});

describe('the embedded database opened threaded', () => {
  const dataDir = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'brain-thread-')), 'pgdata');

  it('holds the data-directory lock in this process while open, and keeps what was written', async () => {
    const dir = dataDir();
    const lockFile = path.join(path.dirname(dir), 'brain.lock');
    const db = await openDatabase({ kind: 'pglite', dataDir: dir, display: dir, thread: true }, { command: 'test' });
    expect(JSON.parse(fs.readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: process.pid, command: 'test' });
    await db.exec("create table kept (v text); insert into kept values ('still here')");
    await db.close();
    expect(fs.existsSync(lockFile)).toBe(false);

    const again = await openDatabase({ kind: 'pglite', dataDir: dir, display: dir, thread: true }, { command: 'test' });
    try {
      expect(await again.query('select v from kept')).toEqual([{ v: 'still here' }]);
    } finally {
      await again.close();
    }
  });

  it('is refused while another process holds the lock', async () => {
    const dir = dataDir();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      fs.writeFileSync(path.join(path.dirname(dir), 'brain.lock'), JSON.stringify({ pid: holder.pid, startedAt: 'earlier', command: 'brain start' }));
      await expect(openDatabase({ kind: 'pglite', dataDir: dir, display: dir, thread: true }, { command: 'brain save' })).rejects.toMatchObject({ code: 'DB_LOCKED' });
    } finally {
      holder.kill();
    }
  });
});
