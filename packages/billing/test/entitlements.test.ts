import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPostgres, withService, type Database } from '@brain/db';
import { describeDb, describePostgres } from '@brain/db/testing';
import { checkEntitlement, recordUsage } from '../src/index.ts';
import { claimedWorkspace, links, policy } from './helpers.ts';

const setPlan = (db: Database, ws: string, status: string, pastDueDaysAgo?: number) =>
  withService(db, (tx) =>
    tx.query(
      `update workspaces set plan_status = $2,
         past_due_since = case when $3::int is null then null else now() - make_interval(days => $3::int) end
       where id = $1`,
      [ws, status, pastDueDaysAgo ?? null],
    ),
  );
const usedOf = async (db: Database, ws: string, kind: string) =>
  (await withService(db, (tx) => tx.query<{ used: number }>('select used from usage_counters where workspace_id = $1 and kind = $2', [ws, kind])))[0]?.used ?? 0;

describeDb('entitlements', (suite) => {
  it('lets the free allowance through, then refuses with a clear message and the checkout link; refusals are not counted', async () => {
    const ws = await claimedWorkspace(suite.db);
    const p = policy({ freeAsks: 3 });
    const asks = [];
    for (let i = 0; i < 5; i++) asks.push(await recordUsage(suite.db, ws, 'ask', p));
    expect(asks.map((a) => a.allowed)).toEqual([true, true, true, false, false]);
    expect(asks.slice(0, 3).map((a) => (a.allowed ? a.remainingFree : null))).toEqual([2, 1, 0]);
    expect(asks[2]).toMatchObject({ basis: 'free', notice: expect.stringContaining(links.checkout(ws)) });
    expect(asks[3]).toEqual({
      allowed: false,
      code: 'FREE_ALLOWANCE_USED',
      message: `This server has used its 3 free questions. Subscribe to keep using /ask: ${links.checkout(ws)}`,
      checkoutUrl: links.checkout(ws),
    });
    expect(await usedOf(suite.db, ws, 'ask')).toBe(3);
    // Saves have their own allowance; checking counts nothing.
    expect(await checkEntitlement(suite.db, ws, 'save', p)).toMatchObject({ allowed: true, basis: 'free', remainingFree: 1 });
    expect(await checkEntitlement(suite.db, ws, 'ask', p)).toMatchObject({ allowed: false, code: 'FREE_ALLOWANCE_USED' });
    expect(await usedOf(suite.db, ws, 'save')).toBe(0);
  });

  it('allows a paid plan without limit, and a past_due one through its grace period only', async () => {
    const ws = await claimedWorkspace(suite.db);
    const p = policy({ freeAsks: 1, pastDueGraceDays: 7 });
    await recordUsage(suite.db, ws, 'ask', p);
    expect((await checkEntitlement(suite.db, ws, 'ask', p)).allowed).toBe(false);

    await setPlan(suite.db, ws, 'active');
    for (let i = 0; i < 3; i++) expect(await recordUsage(suite.db, ws, 'ask', p)).toMatchObject({ allowed: true, basis: 'plan' });
    expect(await usedOf(suite.db, ws, 'ask')).toBe(4);
    await setPlan(suite.db, ws, 'trialing');
    expect(await checkEntitlement(suite.db, ws, 'ask', p)).toMatchObject({ allowed: true, basis: 'plan' });

    await setPlan(suite.db, ws, 'past_due', 3);
    const grace = await recordUsage(suite.db, ws, 'ask', p);
    expect(grace).toMatchObject({ allowed: true, basis: 'grace', notice: expect.stringMatching(/last payment .* failed.*\/billing/) });
    await setPlan(suite.db, ws, 'past_due', 8);
    const overdue = await recordUsage(suite.db, ws, 'ask', p);
    expect(overdue).toMatchObject({ allowed: false, code: 'PAYMENT_OVERDUE', checkoutUrl: null, message: expect.stringContaining('/billing') });

    await setPlan(suite.db, ws, 'canceled');
    expect(await checkEntitlement(suite.db, ws, 'ask', p)).toMatchObject({ allowed: false, message: expect.stringMatching(/^This server's plan has ended/) });
    expect(await checkEntitlement(suite.db, ws, 'save', p)).toMatchObject({ allowed: true, basis: 'free' });
  });

  it('counts but never refuses when billing is off, and refuses unknown workspaces', async () => {
    const ws = await claimedWorkspace(suite.db);
    const off = policy({ billingEnabled: false, freeAsks: 0 });
    expect(await recordUsage(suite.db, ws, 'ask', off)).toMatchObject({ allowed: true, basis: 'unmetered' });
    expect(await usedOf(suite.db, ws, 'ask')).toBe(1);
    expect(await checkEntitlement(suite.db, '00000000-0000-4000-8000-000000000000', 'ask', policy())).toMatchObject({ allowed: false, code: 'WORKSPACE_NOT_FOUND' });
    expect(await recordUsage(suite.db, 'nope', 'ask', policy())).toMatchObject({ allowed: false, code: 'WORKSPACE_NOT_FOUND' });
  });

  it('keeps a tenant from writing its own counter, while letting it read it', async () => {
    const ws = await claimedWorkspace(suite.db);
    await recordUsage(suite.db, ws, 'save', policy());
    const { withWorkspace } = await import('@brain/db');
    expect(await withWorkspace(suite.db, ws, (tx) => tx.query('select kind, used from usage_counters'))).toEqual([{ kind: 'save', used: 1 }]);
    const write = await withWorkspace(suite.db, ws, (tx) => tx.query('update usage_counters set used = 0')).catch((e: unknown) => e as { code?: string });
    expect((write as { code?: string }).code).toBe('42501');
  });
});

describePostgres('entitlement races', (suite) => {
  let pools: Database[] = [];
  beforeAll(() => {
    pools = Array.from({ length: 10 }, (_, i) => openPostgres({ url: suite.url ?? '', display: `usage-${i}`, prepare: true, maxConnections: 1 }));
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
  });

  it('lets exactly one of 10 concurrent uses through at one short of the allowance', async () => {
    const ws = await claimedWorkspace(suite.db);
    const p = policy({ freeAsks: 5 });
    for (let i = 0; i < 4; i++) await recordUsage(suite.db, ws, 'ask', p);
    const results = await Promise.all(pools.map((db) => recordUsage(db, ws, 'ask', p)));
    expect(results.filter((r) => r.allowed)).toHaveLength(1);
    expect(await usedOf(suite.db, ws, 'ask')).toBe(5);
  });

  it('counts every concurrent first use of a fresh workspace', async () => {
    const ws = await claimedWorkspace(suite.db);
    const results = await Promise.all(pools.map((db) => recordUsage(db, ws, 'save', policy({ freeSaves: 100 }))));
    expect(results.every((r) => r.allowed)).toBe(true);
    expect(await usedOf(suite.db, ws, 'save')).toBe(10);
  });
});
