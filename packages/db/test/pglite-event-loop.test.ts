import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPglite, type PgliteDatabase } from '../src/index.ts';

let db: PgliteDatabase;
beforeAll(async () => {
  db = await openPglite();
});
afterAll(async () => {
  await db.close();
});

it('lets the event loop run between queued statements, so queued work cannot starve HTTP requests', async () => {
  const done: number[] = [];
  const queued = Array.from({ length: 40 }, (_, i) => db.query('select $1::int as i', [i]).then(() => done.push(i)));
  // A timer stands in for an incoming request: it must run long before the queue is empty.
  const finishedWhenTimerRan = await new Promise<number>((resolve) => setTimeout(() => resolve(done.length), 0));
  await Promise.all(queued);
  expect(done).toEqual(Array.from({ length: 40 }, (_, i) => i));
  expect(finishedWhenTimerRan).toBeLessThan(5);
});

it('does the same inside transactions, and keeps a transaction isolated from queued statements', async () => {
  await db.exec('create temporary table fairness (n int)');
  const order: string[] = [];
  const tx = db.transaction(async (t) => {
    for (let i = 0; i < 10; i++) await t.query('insert into fairness values ($1)', [i]);
    order.push('tx');
    return t.query<{ n: number }>('select count(*)::int as n from fairness');
  });
  const outside = db.query<{ n: number }>('select count(*)::int as n from fairness').then((r) => (order.push('outside'), r));
  const timer = new Promise<string>((resolve) => setTimeout(() => resolve(order.join(',')), 0));
  expect(await timer).toBe('');
  expect((await tx)[0]?.n).toBe(10);
  expect((await outside)[0]?.n).toBe(10);
  expect(order).toEqual(['tx', 'outside']);
});
