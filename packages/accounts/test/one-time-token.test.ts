import { createHash } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { hashToken, inspectOneTimeToken, issueOneTimeToken, redeemOneTimeToken } from '../src/index.ts';
import { devAccounts, installedWorkspace } from './helpers.ts';

describeDb('one-time tokens', (suite) => {
  let workspaceId: string;
  beforeAll(async () => {
    workspaceId = await installedWorkspace(devAccounts(suite.db));
  });

  const issue = (purpose: 'claim' | 'login' = 'claim') =>
    withService(suite.db, (tx) => issueOneTimeToken(tx, { workspaceId, purpose, email: 'ana@example.com' }));
  const redeem = (token: string, purpose: 'claim' | 'login' = 'claim') => withService(suite.db, (tx) => redeemOneTimeToken(tx, token, purpose));

  it('stores only the SHA-256 of a 32-byte token, never the token in any encoding', async () => {
    const { token, expiresAt } = await issue();
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(10 * 60_000 + 5_000);
    const dump = await withService(suite.db, (tx) => tx.query<{ row: string }>('select t::text as row from auth_tokens t'));
    const text = dump.map((r) => r.row).join('\n');
    expect(text).toContain(hashToken(token));
    expect(hashToken(token)).toBe(createHash('sha256').update(token).digest('hex'));
    for (const encoding of [token, Buffer.from(token, 'base64url').toString('hex'), Buffer.from(token, 'base64url').toString('base64')]) {
      expect(text).not.toContain(encoding);
    }
  });

  it('redeems once; a replay is refused as used', async () => {
    const { token } = await issue();
    expect(await redeem(token)).toEqual({ ok: true, workspaceId, email: 'ana@example.com' });
    expect(await redeem(token)).toEqual({ ok: false, state: 'used' });
  });

  it('refuses an expired token, a token of another purpose, and garbage', async () => {
    const { token } = await issue();
    await withService(suite.db, (tx) =>
      tx.query(`update auth_tokens set created_at = now() - interval '11 minutes', expires_at = now() - interval '1 second' where token_hash = $1`, [
        hashToken(token),
      ]),
    );
    expect(await redeem(token)).toEqual({ ok: false, state: 'expired' });

    const login = await issue('login');
    expect(await redeem(login.token, 'claim')).toEqual({ ok: false, state: 'unknown' });
    expect(await redeem('not-a-token')).toEqual({ ok: false, state: 'unknown' });
    expect(await redeem('A'.repeat(43))).toEqual({ ok: false, state: 'unknown' });
    expect((await redeem(login.token, 'login')).ok).toBe(true);
  });

  it('invalidates the earlier link when a new one is issued for the same workspace and purpose', async () => {
    const first = await issue();
    const second = await issue();
    expect((await withService(suite.db, (tx) => inspectOneTimeToken(tx, first.token, 'claim'))).state).toBe('unknown');
    expect((await redeem(second.token)).ok).toBe(true);
  });
});
