import { beforeAll, expect, it } from 'vitest';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { generateToken, hashToken, SESSION_ABSOLUTE_SECONDS, type Accounts } from '../src/index.ts';
import { devAccounts, installedWorkspace } from './helpers.ts';

describeDb('dashboard sessions', (suite) => {
  let accounts: Accounts;
  beforeAll(() => {
    accounts = devAccounts(suite.db);
  });

  async function ownedWorkspace(email: string): Promise<string> {
    const ws = await installedWorkspace(accounts, 'Sessions');
    await withService(suite.db, (tx) => tx.query('update workspaces set claim_email = $2, claimed_at = now() where id = $1', [ws, email]));
    return ws;
  }

  const sessionRow = (key: string) =>
    withService(suite.db, (tx) =>
      tx.query<{ last_seen_at: Date; expires_at: Date; created_at: Date }>('select last_seen_at, expires_at, created_at from dashboard_sessions where token_hash = $1', [key]),
    );

  it('starts a session whose cookie value is never stored, and checks it back to its workspace and owner', async () => {
    const ws = await ownedWorkspace('ana@example.com');
    const { token, session } = await accounts.startSession({ workspaceId: ws, email: 'ana@example.com' });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.key).toBe(hashToken(token));
    expect((session.expiresAt.getTime() - session.createdAt.getTime()) / 1000).toBeCloseTo(SESSION_ABSOLUTE_SECONDS, 0);
    const dump = await withService(suite.db, (tx) => tx.query('select * from dashboard_sessions'));
    expect(JSON.stringify(dump)).not.toContain(token);

    const check = await accounts.checkSession(token);
    expect(check).toMatchObject({ ok: true, session: { workspaceId: ws, email: 'ana@example.com', key: hashToken(token) } });
  });

  it('refuses a forged, malformed or missing cookie as unknown', async () => {
    for (const token of [generateToken(), 'not-a-token', '', undefined, 42, `${generateToken()}x`]) {
      expect(await accounts.checkSession(token)).toEqual({ ok: false, reason: 'unknown' });
    }
  });

  it('ends a session past its absolute end or idle for 12 hours, and deletes it so it cannot come back', async () => {
    const ws = await ownedWorkspace('bo@example.com');
    const expired = await accounts.startSession({ workspaceId: ws, email: 'bo@example.com' });
    await withService(suite.db, (tx) =>
      tx.query(`update dashboard_sessions set created_at = now() - interval '8 days', last_seen_at = now() - interval '1 minute', expires_at = now() - interval '1 second' where token_hash = $1`, [
        expired.session.key,
      ]),
    );
    expect(await accounts.checkSession(expired.token)).toEqual({ ok: false, reason: 'expired' });
    expect(await sessionRow(expired.session.key)).toEqual([]);

    const idle = await accounts.startSession({ workspaceId: ws, email: 'bo@example.com' });
    await withService(suite.db, (tx) => tx.query(`update dashboard_sessions set last_seen_at = now() - interval '12 hours 1 minute' where token_hash = $1`, [idle.session.key]));
    expect(await accounts.checkSession(idle.token)).toEqual({ ok: false, reason: 'idle' });
    expect(await accounts.checkSession(idle.token)).toEqual({ ok: false, reason: 'unknown' });

    // 11 hours idle is still fine, and using it moves the idle clock.
    const active = await accounts.startSession({ workspaceId: ws, email: 'bo@example.com' });
    await withService(suite.db, (tx) => tx.query(`update dashboard_sessions set last_seen_at = now() - interval '11 hours' where token_hash = $1`, [active.session.key]));
    expect((await accounts.checkSession(active.token)).ok).toBe(true);
    const [touched] = await sessionRow(active.session.key);
    expect(Date.now() - new Date(touched?.last_seen_at ?? 0).getTime()).toBeLessThan(60_000);
  });

  it('writes last_seen_at at most once a minute', async () => {
    const ws = await ownedWorkspace('cy@example.com');
    const { token, session } = await accounts.startSession({ workspaceId: ws, email: 'cy@example.com' });
    await withService(suite.db, (tx) => tx.query(`update dashboard_sessions set last_seen_at = now() - interval '30 seconds' where token_hash = $1`, [session.key]));
    const [before] = await sessionRow(session.key);
    await accounts.checkSession(token);
    const [after] = await sessionRow(session.key);
    expect(new Date(after?.last_seen_at ?? 0).getTime()).toBe(new Date(before?.last_seen_at ?? 0).getTime());
  });

  it('refuses a session once its address no longer owns the workspace', async () => {
    const ws = await ownedWorkspace('dee@example.com');
    const { token } = await accounts.startSession({ workspaceId: ws, email: 'dee@example.com' });
    // A support transfer: the trigger that guards claim_email is lifted for this one statement.
    await suite.db.transaction(async (tx) => {
      await tx.exec('alter table workspaces disable trigger workspaces_claim_email_once');
      await tx.query(`update workspaces set claim_email = 'new-owner@example.com' where id = $1`, [ws]);
      await tx.exec('alter table workspaces enable trigger workspaces_claim_email_once');
    });
    expect(await accounts.checkSession(token)).toEqual({ ok: false, reason: 'not_owner' });
  });

  it('ends one session on logout, and every session of a workspace on "sign out everywhere"', async () => {
    const ws = await ownedWorkspace('eve@example.com');
    const other = await ownedWorkspace('fay@example.com');
    const first = await accounts.startSession({ workspaceId: ws, email: 'eve@example.com' });
    const second = await accounts.startSession({ workspaceId: ws, email: 'eve@example.com' });
    const elsewhere = await accounts.startSession({ workspaceId: other, email: 'fay@example.com' });
    expect(await accounts.endSession(first.token)).toBe(true);
    expect(await accounts.endSession(first.token)).toBe(false);
    expect(await accounts.checkSession(first.token)).toEqual({ ok: false, reason: 'unknown' });
    expect((await accounts.checkSession(second.token)).ok).toBe(true);
    expect(await accounts.endAllSessions(ws)).toBe(1);
    expect((await accounts.checkSession(second.token)).ok).toBe(false);
    expect((await accounts.checkSession(elsewhere.token)).ok).toBe(true);
  });

  it('sweeps ended sessions when a new one starts', async () => {
    const ws = await ownedWorkspace('gil@example.com');
    const old = await accounts.startSession({ workspaceId: ws, email: 'gil@example.com' });
    await withService(suite.db, (tx) => tx.query(`update dashboard_sessions set last_seen_at = now() - interval '13 hours' where token_hash = $1`, [old.session.key]));
    await accounts.startSession({ workspaceId: ws, email: 'gil@example.com' });
    expect(await sessionRow(old.session.key)).toEqual([]);
  });
});
