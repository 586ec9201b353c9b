import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPostgres, withService, type Database } from '@brain/db';
import { describePostgres } from '@brain/db/testing';
import { DevOutboxMailer, type Accounts } from '../src/index.ts';
import { claimEmailOf, devAccounts, installedWorkspace, nextGuildId, tokenOf } from './helpers.ts';

/** Each caller on its own pool, so the race runs between real sessions, not inside one. */
describePostgres('install and claim races', (suite) => {
  let pools: Database[] = [];
  beforeAll(() => {
    pools = Array.from({ length: 6 }, (_, i) => openPostgres({ url: suite.url ?? '', display: `race-${i}`, prepare: true, maxConnections: 2 }));
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
  });

  it('gives concurrent installs of one guild one workspace, and every caller sees it', async () => {
    for (let round = 0; round < 5; round++) {
      const guildId = nextGuildId();
      const installs = await Promise.all(
        pools.map((db, i) => devAccounts(db).install({ id: guildId, name: `Guild ${i}` }, `10.9.${round}.${i}`)),
      );
      const ids = new Set(installs.map((w) => w.id));
      expect(ids.size).toBe(1);
      expect(installs.filter((w) => w.created)).toHaveLength(1);
      const rows = await withService(suite.db, (tx) => tx.query<{ n: number }>('select count(*)::int as n from workspaces where guild_id = $1', [guildId]));
      expect(rows[0]?.n).toBe(1);
    }
  });

  it('lets exactly one of two concurrent redemptions of a claim link succeed; the other is told the link was used', async () => {
    const outbox = new DevOutboxMailer({ print: () => {} });
    const accounts: Accounts = devAccounts(suite.db, outbox);
    for (let round = 0; round < 5; round++) {
      const ws = await installedWorkspace(accounts);
      await accounts.requestLink({ purpose: 'claim', workspaceId: ws, email: `race${round}@example.com`, ip: `10.8.0.${round}` });
      await accounts.drain();
      const token = tokenOf(outbox.entries()[0]?.url ?? '');
      const results = await Promise.all(
        pools.slice(0, 2).map((db, i) => devAccounts(db, outbox).redeemClaim({ token, ip: `10.7.${round}.${i}` })),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.find((r) => !r.ok)).toMatchObject({ ok: false, reason: 'used' });
      expect(await claimEmailOf(suite.db, ws)).toBe(`race${round}@example.com`);
    }
  });

  it('lets one of two different owners claim a workspace at once; the other is refused, not overwritten', async () => {
    const accounts = devAccounts(suite.db);
    const ws = await installedWorkspace(accounts);
    const { generateToken, hashToken } = await import('../src/index.ts');
    const tokens = ['one@example.com', 'two@example.com'].map((email) => ({ email, token: generateToken() }));
    for (const t of tokens) {
      await withService(suite.db, (tx) =>
        tx.query(`insert into auth_tokens (workspace_id, purpose, email, token_hash, expires_at) values ($1, 'claim', $2, $3, now() + interval '10 minutes')`, [
          ws,
          t.email,
          hashToken(t.token),
        ]),
      );
    }
    const results = await Promise.all(tokens.map((t, i) => devAccounts(pools[i] as Database).redeemClaim({ token: t.token, ip: `10.6.0.${i}` })));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toMatchObject({ reason: 'claimed_by_other' });
    const owner = await claimEmailOf(suite.db, ws);
    expect(results.find((r) => r.ok)).toMatchObject({ email: owner });
  });
});
