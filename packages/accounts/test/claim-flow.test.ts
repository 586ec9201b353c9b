import { beforeAll, expect, it } from 'vitest';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { isAppError } from '@brain/errors';
import { DevOutboxMailer, generateToken, hashToken, type Accounts } from '../src/index.ts';
import { claimEmailOf, devAccounts, installedWorkspace, PUBLIC_URL, tokenOf } from './helpers.ts';

describeDb('claim by magic link', (suite) => {
  let outbox: DevOutboxMailer;
  let accounts: Accounts;
  let printed: string[];
  beforeAll(() => {
    printed = [];
    outbox = new DevOutboxMailer({ print: (line) => printed.push(line) });
    accounts = devAccounts(suite.db, outbox);
  });

  async function requestClaim(workspaceId: string, email: string, ip = '198.51.100.1'): Promise<string> {
    await accounts.requestLink({ purpose: 'claim', workspaceId, email, ip });
    await accounts.drain();
    const entry = outbox.entries()[0];
    if (!entry) throw new Error('no link was sent');
    return entry.url;
  }

  it('sends a link built from PUBLIC_URL to the outbox and the console, and claims once', async () => {
    const ws = await installedWorkspace(accounts, 'Claimers');
    const link = await requestClaim(ws, '  Ana@Example.COM ');
    expect(link.startsWith(`${PUBLIC_URL}/claim/confirm?token=`)).toBe(true);
    expect(outbox.entries()[0]).toMatchObject({ to: 'ana@example.com', purpose: 'claim', workspaceName: 'Claimers' });
    expect(printed.at(-1)).toContain(link);

    // Looking at the link (a mail scanner's GET) consumes nothing.
    expect((await accounts.describeClaimLink(tokenOf(link))).token.state).toBe('valid');
    expect((await accounts.describeClaimLink(tokenOf(link))).token.state).toBe('valid');

    const first = await accounts.redeemClaim({ token: tokenOf(link), ip: '198.51.100.1' });
    expect(first).toMatchObject({ ok: true, email: 'ana@example.com', alreadyOwner: false, workspace: { id: ws, planStatus: 'none' } });
    expect(await claimEmailOf(suite.db, ws)).toBe('ana@example.com');
    expect(await accounts.redeemClaim({ token: tokenOf(link), ip: '198.51.100.1' })).toMatchObject({ ok: false, reason: 'used' });
  });

  it('refuses an expired link, and sends no claim link for a claimed workspace', async () => {
    const ws = await installedWorkspace(accounts);
    const link = await requestClaim(ws, 'bo@example.com');
    await withService(suite.db, (tx) =>
      tx.query(`update auth_tokens set created_at = now() - interval '1 hour', expires_at = now() - interval '1 minute' where token_hash = $1`, [
        hashToken(tokenOf(link)),
      ]),
    );
    expect(await accounts.redeemClaim({ token: tokenOf(link), ip: '198.51.100.2' })).toMatchObject({ ok: false, reason: 'expired' });
    expect(await claimEmailOf(suite.db, ws)).toBeNull();

    const fresh = await requestClaim(ws, 'bo@example.com');
    expect((await accounts.redeemClaim({ token: tokenOf(fresh), ip: '198.51.100.2' })).ok).toBe(true);
    const sent = outbox.entries().length;
    await accounts.requestLink({ purpose: 'claim', workspaceId: ws, email: 'mallory@example.com', ip: '198.51.100.3' });
    await accounts.drain();
    expect(outbox.entries().length).toBe(sent);
  });

  it('never hands a claimed workspace to a second address', async () => {
    const ws = await installedWorkspace(accounts);
    const ana = await requestClaim(ws, 'ana2@example.com');
    // A second live token for another address, inserted directly (a request would have replaced Ana's).
    const eve = { token: generateToken() };
    await withService(suite.db, (tx) =>
      tx.query(`insert into auth_tokens (workspace_id, purpose, email, token_hash, expires_at) values ($1, 'claim', 'eve@example.com', $2, now() + interval '10 minutes')`, [
        ws,
        hashToken(eve.token),
      ]),
    );
    expect((await accounts.redeemClaim({ token: eve.token, ip: '198.51.100.4' })).ok).toBe(true);
    expect(await accounts.redeemClaim({ token: tokenOf(ana), ip: '198.51.100.4' })).toMatchObject({ ok: false, reason: 'claimed_by_other' });
    expect(await claimEmailOf(suite.db, ws)).toBe('eve@example.com');
  });

  it('limits link requests per workspace and per IP with a 429 that says when to retry, and per address silently', async () => {
    const ws = await installedWorkspace(accounts);
    for (let i = 0; i < 5; i++) await accounts.requestLink({ purpose: 'claim', workspaceId: ws, email: `p${i}@example.com`, ip: `203.0.113.${i}` });
    const sixth = await accounts.requestLink({ purpose: 'claim', workspaceId: ws, email: 'p6@example.com', ip: '203.0.113.99' }).catch((e: unknown) => e);
    expect(isAppError(sixth, 'RATE_LIMITED') && sixth.httpStatus).toBe(429);
    expect(isAppError(sixth) && sixth.toUserString()).toMatch(/Too many link requests for this workspace for now\. Try again in \d+ minutes?\./);

    const ip = '203.0.113.200';
    const results = [];
    for (let i = 0; i < 11; i++) {
      const other = await installedWorkspace(accounts);
      results.push(await accounts.requestLink({ purpose: 'claim', workspaceId: other, email: `q${i}@example.com`, ip }).then(() => 'ok', (e: unknown) => (isAppError(e) ? e.code : 'error')));
    }
    expect(results.filter((r) => r === 'ok')).toHaveLength(10);
    expect(results.at(-1)).toBe('RATE_LIMITED');
    await accounts.drain();

    const quiet = await installedWorkspace(accounts);
    const before = outbox.entries().length;
    for (let i = 0; i < 4; i++) await accounts.requestLink({ purpose: 'claim', workspaceId: i < 3 ? quiet : await installedWorkspace(accounts), email: 'same@example.com', ip: '192.0.2.1' });
    await accounts.drain();
    expect(outbox.entries().length - before).toBe(3);
    // The silent limit is the address's and the requester's together: another requester is not refused.
    await accounts.requestLink({ purpose: 'claim', workspaceId: await installedWorkspace(accounts), email: 'same@example.com', ip: '192.0.2.2' });
    await accounts.drain();
    expect(outbox.entries().length - before).toBe(4);
  });

  it('answers a login request for an owner and for a stranger alike, and only the owner gets a link', async () => {
    const ws = await installedWorkspace(accounts);
    await withService(suite.db, (tx) => tx.query(`update workspaces set claim_email = 'owner@example.com', claimed_at = now() where id = $1`, [ws]));
    const before = outbox.entries().length;
    const known = await accounts.requestLink({ purpose: 'login', workspaceId: ws, email: 'owner@example.com', ip: '192.0.2.50' });
    const unknown = await accounts.requestLink({ purpose: 'login', workspaceId: ws, email: 'stranger@example.com', ip: '192.0.2.51' });
    expect(known).toBe(unknown);
    await accounts.drain();
    expect(outbox.entries().length - before).toBe(1);
    const entry = outbox.entries()[0];
    expect(entry?.to).toBe('owner@example.com');
    expect(entry?.url.startsWith(`${PUBLIC_URL}/login/confirm?token=`)).toBe(true);
    expect(await accounts.redeemLogin({ token: tokenOf(entry?.url ?? ''), ip: '192.0.2.50' })).toEqual({ ok: true, workspaceId: ws, email: 'owner@example.com' });
  });

  it('rejects an address that is not one before taking any limit', async () => {
    const ws = await installedWorkspace(accounts);
    for (const email of ['', 'no-at-sign', 'a@b', 'x@y.z\r\nBcc: all@example.com', 'a'.repeat(250) + '@example.com']) {
      const error = await accounts.requestLink({ purpose: 'claim', workspaceId: ws, email, ip: '192.0.2.60' }).catch((e: unknown) => e);
      expect(isAppError(error, 'EMAIL_INVALID')).toBe(true);
    }
  });
});
