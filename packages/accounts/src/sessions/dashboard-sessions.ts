import { withService, type Database } from '@brain/db';
import { generateToken, hashToken, looksLikeToken } from '../tokens/one-time-token.ts';

/** A session nobody has used for this long ends (the 12 hours). */
export const SESSION_IDLE_SECONDS = 12 * 3600;
/** However active, a session ends this long after the login link that started it. */
export const SESSION_ABSOLUTE_SECONDS = 7 * 86400;
/** last_seen_at is written at most this often per session: a page view is otherwise a read. */
const TOUCH_EVERY_SECONDS = 60;

export interface DashboardSession {
  workspaceId: string;
  /** The server's name, for the page header (read with the session: no second round trip). */
  workspaceName: string;
  email: string;
  /** The SHA-256 of the cookie: a stable name for this session (CSRF tokens are bound to it). */
  key: string;
  createdAt: Date;
  expiresAt: Date;
}

export type SessionRefusal = 'unknown' | 'expired' | 'idle' | 'not_owner';

export type SessionCheck = { ok: true; session: DashboardSession } | { ok: false; reason: SessionRefusal };

interface SessionRow extends Record<string, unknown> {
  workspace_id: string;
  workspace_name: string;
  email: string;
  created_at: Date | string;
  expires_at: Date | string;
  expired: boolean;
  idle: boolean;
  owner: boolean;
  stale: boolean;
}

/**
 * Starts a session for the owner who just redeemed a login link, and returns the cookie value
 * (256 random bits; the table keeps only its hash). Ended sessions are swept on the way, so the
 * table holds live sessions plus at most a day of leftovers. Run after redeemLogin succeeded.
 */
export async function startDashboardSession(db: Database, owner: { workspaceId: string; email: string }): Promise<{ token: string; session: DashboardSession }> {
  const token = generateToken();
  const key = hashToken(token);
  const [row] = await withService(db, async (tx) => {
    await tx.query(
      `delete from public.dashboard_sessions
       where expires_at <= now() or last_seen_at <= now() - make_interval(secs => $1)`,
      [SESSION_IDLE_SECONDS],
    );
    return tx.query<{ created_at: Date | string; expires_at: Date | string; workspace_name: string | null }>(
      `insert into public.dashboard_sessions (token_hash, workspace_id, email, expires_at)
       values ($1, $2, $3, now() + make_interval(secs => $4))
       returning created_at, expires_at, (select w.name from public.workspaces w where w.id = $2) as workspace_name`,
      [key, owner.workspaceId, owner.email, SESSION_ABSOLUTE_SECONDS],
    );
  });
  return {
    token,
    session: {
      workspaceId: owner.workspaceId,
      workspaceName: row?.workspace_name ?? '',
      email: owner.email,
      key,
      createdAt: new Date(row?.created_at ?? Date.now()),
      expiresAt: new Date(row?.expires_at ?? Date.now()),
    },
  };
}

/**
 * The session a cookie names, checked against the database's clock: unknown, past its absolute
 * end, idle too long, or no longer held by the workspace's owner (a support transfer) are all
 * refused, and an ended session is deleted so it cannot come back. A live one is touched at most
 * once a minute.
 */
export async function checkDashboardSession(db: Database, token: unknown): Promise<SessionCheck> {
  if (!looksLikeToken(token)) return { ok: false, reason: 'unknown' };
  const key = hashToken(token);
  return withService(db, async (tx): Promise<SessionCheck> => {
    const [row] = await tx.query<SessionRow>(
      `select s.workspace_id::text, w.name as workspace_name, s.email, s.created_at, s.expires_at,
              s.expires_at <= now() as expired,
              s.last_seen_at <= now() - make_interval(secs => $2) as idle,
              w.claim_email is not distinct from s.email as owner,
              s.last_seen_at <= now() - make_interval(secs => $3) as stale
       from public.dashboard_sessions s join public.workspaces w on w.id = s.workspace_id
       where s.token_hash = $1`,
      [key, SESSION_IDLE_SECONDS, TOUCH_EVERY_SECONDS],
    );
    if (!row) return { ok: false, reason: 'unknown' };
    const refusal: SessionRefusal | undefined = row.expired ? 'expired' : row.idle ? 'idle' : !row.owner ? 'not_owner' : undefined;
    if (refusal) {
      await tx.query('delete from public.dashboard_sessions where token_hash = $1', [key]);
      return { ok: false, reason: refusal };
    }
    if (row.stale) await tx.query('update public.dashboard_sessions set last_seen_at = now() where token_hash = $1', [key]);
    return {
      ok: true,
      session: { workspaceId: row.workspace_id, workspaceName: row.workspace_name, email: row.email, key, createdAt: new Date(row.created_at), expiresAt: new Date(row.expires_at) },
    };
  });
}

/** Logout: the session is gone from the database, whoever still holds the cookie. */
export async function endDashboardSession(db: Database, token: unknown): Promise<boolean> {
  if (!looksLikeToken(token)) return false;
  const rows = await withService(db, (tx) => tx.query('delete from public.dashboard_sessions where token_hash = $1 returning 1', [hashToken(token)]));
  return rows.length > 0;
}

/** "Sign out everywhere": every session of the workspace ends. Returns how many did. */
export async function endWorkspaceSessions(db: Database, workspaceId: string): Promise<number> {
  const rows = await withService(db, (tx) => tx.query('delete from public.dashboard_sessions where workspace_id = $1 returning 1', [workspaceId]));
  return rows.length;
}
