/**
 * The app's long-lived PostgreSQL client when the server ends a connection under it (a restart,
 * a crashed backend, pg_terminate_backend): the caller gets DB_CONNECTION_LOST with a next step,
 * nothing escapes as an uncaught exception (postgres.js 3.4.9's write after close used to kill
 * the process), and the pool keeps serving on fresh connections.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { AppError } from '@brain/errors';
import { expectNoMoreCalls, waitUntil } from '@brain/testkit';
import { isDriverWriteAfterClose, openPostgres, type Database } from '../src/index.ts';
import { describePostgres } from '../src/testing/index.ts';

/** A statement that runs until the test cuts its connection (the SQL sleep is the subject, not a wait). */
const UNTIL_KILLED = 'select pg_sleep(30)';

describePostgres('a connection the server ends under the app', (suite) => {
  let db: Database;
  let killer: Database;
  let stray: Error[] = [];
  let restore: () => void = () => {};

  beforeAll(() => {
    killer = openPostgres({ url: suite.url as string, display: 'killer', prepare: true, maxConnections: 1 });
  });
  afterAll(async () => {
    await killer.close();
  });

  beforeEach(() => {
    // One connection: the one that is killed is the one the next query must get back working.
    db = openPostgres({ url: suite.url as string, display: 'app', prepare: true, maxConnections: 1, applicationName: 'connection-lost-test' });
    stray = [];
    // Only the driver's TypeError is held here, to be asserted on; anything else still fails the run.
    const previous = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    const handler = (error: Error, origin: NodeJS.UncaughtExceptionOrigin): void => {
      if (isDriverWriteAfterClose(error)) {
        stray.push(error);
        return;
      }
      for (const listener of previous) listener(error, origin);
    };
    process.on('uncaughtException', handler);
    restore = () => {
      process.off('uncaughtException', handler);
      for (const listener of previous) process.on('uncaughtException', listener);
    };
  });
  afterEach(async () => {
    await db.close().catch(() => {});
    restore();
  });

  async function pidOf(target: Database): Promise<number> {
    const [row] = await target.query<{ pid: number }>('select pg_backend_pid() as pid');
    return row?.pid as number;
  }

  async function terminate(pid: number): Promise<void> {
    const [row] = await killer.query<{ ok: boolean }>('select pg_terminate_backend($1) as ok', [pid]);
    expect(row?.ok).toBe(true);
  }

  /** Until the server shows this backend running `query` (so a kill lands mid-query). */
  async function untilRunning(pid: number, query: string): Promise<void> {
    await waitUntil(async () => (await killer.query("select 1 from pg_stat_activity where pid = $1 and state = 'active' and query = $2", [pid, query])).length > 0, {
      what: `backend ${pid} to be running ${query}`,
    });
  }

  /** Until the server has ended this backend (its socket is closed). */
  async function untilGone(pid: number): Promise<void> {
    await waitUntil(async () => (await killer.query('select 1 from pg_stat_activity where pid = $1', [pid])).length === 0, { what: `backend ${pid} to exit` });
  }

  /** What must hold after any loss: no stray TypeError, and the pool answers at once on a new backend. */
  async function expectRecovered(oldPid: number): Promise<void> {
    // The driver's stray write comes from a timer just after the close: none may arrive.
    await expectNoMoreCalls(() => stray, 300);
    expect(stray.map((e) => e.message)).toEqual([]);
    const started = performance.now();
    const pid = await pidOf(db);
    expect(pid).not.toBe(oldPid);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(await db.transaction((tx) => tx.query<{ n: number }>('select 1 as n'))).toEqual([{ n: 1 }]);
  }

  it('rejects a transaction whose query was cut off with DB_CONNECTION_LOST and a next step', async () => {
    const pid = await pidOf(db);
    let after = false;
    const running = db.transaction(async (tx) => {
      await tx.query(UNTIL_KILLED);
      after = true;
    });
    const outcome = running.then(() => undefined, (error: unknown) => error);
    await untilRunning(pid, UNTIL_KILLED);
    await terminate(pid);
    const error = (await outcome) as AppError;
    await expectRecovered(pid);
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('DB_CONNECTION_LOST');
    expect(error.message).toContain('The connection to PostgreSQL at app was lost');
    expect(error.nextStep).toMatch(/Try again in a moment/);
    expect(error.retryable).toBe(true);
    // The callback never went on past the lost query as if it had succeeded.
    expect(after).toBe(false);
  });

  it('does the same when the connection goes while the callback is between queries', async () => {
    const pid = await pidOf(db);
    let resume: () => void = () => {};
    const paused = new Promise<void>((resolve) => (resume = resolve));
    let pausing: () => void = () => {};
    const atPause = new Promise<void>((resolve) => (pausing = resolve));
    let second: 'not reached' | 'ran' = 'not reached';
    const running = db.transaction(async (tx) => {
      await tx.query('select 1');
      pausing();
      await paused;
      await tx.query('select 2');
      second = 'ran';
    });
    const outcome = running.then(() => undefined, (error: unknown) => error);
    await atPause;
    await terminate(pid);
    await untilGone(pid);
    resume();
    const error = (await outcome) as AppError;
    await expectRecovered(pid);
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('DB_CONNECTION_LOST');
    expect(second).toBe('not reached');
  });

  it('gives a plain query cut off the same error', async () => {
    const pid = await pidOf(db);
    const outcome = db.query(UNTIL_KILLED).then(() => undefined, (error: unknown) => error);
    await untilRunning(pid, UNTIL_KILLED);
    await terminate(pid);
    const error = (await outcome) as AppError;
    await expectRecovered(pid);
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('DB_CONNECTION_LOST');
  });
});
