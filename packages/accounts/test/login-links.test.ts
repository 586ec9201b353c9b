import { beforeAll, expect, it } from 'vitest';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { isAppError } from '@brain/errors';
import { DevOutboxMailer, type Accounts } from '../src/index.ts';
import { devAccounts, installedWorkspace, PUBLIC_URL, tokenOf } from './helpers.ts';

describeDb('dashboard login links', (suite) => {
  let outbox: DevOutboxMailer;
  let accounts: Accounts;
  beforeAll(() => {
    outbox = new DevOutboxMailer({ print: () => {}, keep: 200 });
    accounts = devAccounts(suite.db, outbox);
  });

  async function owned(name: string, email: string): Promise<string> {
    const ws = await installedWorkspace(accounts, name);
    await withService(suite.db, (tx) => tx.query('update workspaces set claim_email = $2, claimed_at = now() where id = $1', [ws, email]));
    return ws;
  }

  async function request(email: string, ip = '203.0.113.9') {
    const before = outbox.entries().length;
    await accounts.requestLoginLinks({ email, ip });
    await accounts.drain();
    return outbox.entries().slice(0, outbox.entries().length - before);
  }

  it('sends one login link per workspace the address owns, each naming its server, to /login/confirm', async () => {
    const a = await owned('Alpha', 'multi@example.com');
    const b = await owned('Beta', 'multi@example.com');
    await owned('Gamma', 'someone-else@example.com');
    const sent = await request('  Multi@Example.com ');
    expect(sent.map((e) => e.workspaceName).sort()).toEqual(['Alpha', 'Beta']);
    expect(sent.every((e) => e.purpose === 'login' && e.to === 'multi@example.com')).toBe(true);
    expect(sent.every((e) => e.url.startsWith(`${PUBLIC_URL}/login/confirm?token=`))).toBe(true);

    const alpha = sent.find((e) => e.workspaceName === 'Alpha');
    const view = await accounts.describeLoginLink(tokenOf(alpha?.url ?? ''));
    expect(view).toMatchObject({ token: { state: 'valid', email: 'multi@example.com' }, workspace: { id: a, name: 'Alpha' } });
    // Looking consumed nothing; redeeming does, once.
    expect(await accounts.redeemLogin({ token: tokenOf(alpha?.url ?? ''), ip: '203.0.113.9' })).toEqual({ ok: true, workspaceId: a, email: 'multi@example.com' });
    expect(await accounts.redeemLogin({ token: tokenOf(alpha?.url ?? ''), ip: '203.0.113.9' })).toEqual({ ok: false, reason: 'used' });
    const beta = sent.find((e) => e.workspaceName === 'Beta');
    expect(await accounts.redeemLogin({ token: tokenOf(beta?.url ?? ''), ip: '203.0.113.9' })).toMatchObject({ ok: true, workspaceId: b });
  });

  it('answers an address that owns nothing exactly as one that does, and sends nothing', async () => {
    await owned('Delta', 'owner-delta@example.com');
    await expect(accounts.requestLoginLinks({ email: 'owner-delta@example.com', ip: '203.0.113.10' })).resolves.toBeUndefined();
    await expect(accounts.requestLoginLinks({ email: 'nobody@example.com', ip: '203.0.113.10' })).resolves.toBeUndefined();
    await accounts.drain();
    expect(await request('nobody-at-all@example.com')).toEqual([]);
    // An unclaimed workspace has no owner to log in as.
    await installedWorkspace(accounts, 'Unclaimed');
    expect(await request('unclaimed@example.com')).toEqual([]);
  });

  it('refuses a malformed address with EMAIL_INVALID', async () => {
    const error = await accounts.requestLoginLinks({ email: 'not an address', ip: '203.0.113.11' }).catch((e: unknown) => e);
    expect(isAppError(error, 'EMAIL_INVALID')).toBe(true);
  });

  it('throttles an address silently after three requests in fifteen minutes from one requester, and still sends the owner’s own', async () => {
    await owned('Epsilon', 'busy@example.com');
    for (let i = 0; i < 3; i++) expect(await request('busy@example.com', '203.0.113.20')).toHaveLength(1);
    expect(await request('busy@example.com', '203.0.113.20')).toEqual([]);
    // Whoever spent that requester's allowance, another requester (the owner) still gets a link.
    expect(await request('busy@example.com', '203.0.113.30')).toHaveLength(1);
  });

  it('refuses the login once the address no longer owns the workspace', async () => {
    const ws = await owned('Zeta', 'former@example.com');
    const [link] = await request('former@example.com', '203.0.113.40');
    await suite.db.transaction(async (tx) => {
      await tx.exec('alter table workspaces disable trigger workspaces_claim_email_once');
      await tx.query(`update workspaces set claim_email = 'current@example.com' where id = $1`, [ws]);
      await tx.exec('alter table workspaces enable trigger workspaces_claim_email_once');
    });
    expect(await accounts.redeemLogin({ token: tokenOf(link?.url ?? ''), ip: '203.0.113.40' })).toEqual({ ok: false, reason: 'not_owner' });
  });
});
