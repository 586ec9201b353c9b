import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '@brain/db';

export type TokenPurpose = 'claim' | 'login';

/** Claim and login links live ten minutes: long enough to switch to a mail app, short enough to be worthless in a leak. */
export const ONE_TIME_TOKEN_TTL_SECONDS = 600;

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** 32 bytes from the CSPRNG, base64url: 256 bits, nothing to brute-force. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps instead of the token. A plain SHA-256 suffices: the input has 256 bits of entropy. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function looksLikeToken(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_SHAPE.test(value);
}

export interface IssueTokenInput {
  workspaceId: string;
  purpose: TokenPurpose;
  email: string;
  ttlSeconds?: number;
}

/**
 * Stores a new token's hash and returns the token itself, which exists from here on only in the
 * link sent to the mailbox. Any earlier unused token for the same workspace and purpose is
 * deleted: the newest link is the only one that works. Run as service_role.
 */
export async function issueOneTimeToken(tx: Queryable, input: IssueTokenInput): Promise<{ token: string; expiresAt: Date }> {
  const token = generateToken();
  await tx.query(`delete from public.auth_tokens where workspace_id = $1 and purpose = $2 and used_at is null`, [
    input.workspaceId,
    input.purpose,
  ]);
  const [row] = await tx.query<{ expires_at: Date | string }>(
    `insert into public.auth_tokens (workspace_id, purpose, email, token_hash, expires_at)
     values ($1, $2, $3, $4, now() + make_interval(secs => $5))
     returning expires_at`,
    [input.workspaceId, input.purpose, input.email, hashToken(token), input.ttlSeconds ?? ONE_TIME_TOKEN_TTL_SECONDS],
  );
  return { token, expiresAt: new Date(row?.expires_at ?? Date.now()) };
}

export type TokenState = 'valid' | 'used' | 'expired' | 'unknown';

export interface TokenInfo {
  state: TokenState;
  workspaceId?: string;
  email?: string;
  expiresAt?: Date;
}

/** What a token is, without consuming it (the confirm page's GET). */
export async function inspectOneTimeToken(tx: Queryable, token: unknown, purpose: TokenPurpose): Promise<TokenInfo> {
  if (!looksLikeToken(token)) return { state: 'unknown' };
  const [row] = await tx.query<{ workspace_id: string; email: string; expires_at: Date | string; used: boolean; expired: boolean }>(
    `select workspace_id::text, email, expires_at, used_at is not null as used, expires_at <= now() as expired
     from public.auth_tokens where token_hash = $1 and purpose = $2`,
    [hashToken(token), purpose],
  );
  if (!row) return { state: 'unknown' };
  return {
    state: row.used ? 'used' : row.expired ? 'expired' : 'valid',
    workspaceId: row.workspace_id,
    email: row.email,
    expiresAt: new Date(row.expires_at),
  };
}

/**
 * Consumes a token: one UPDATE that only an unused, unexpired token of this purpose matches, so
 * of any number of concurrent redemptions exactly one gets the row. Returns why it failed
 * otherwise (used, expired, unknown), for a message the person can act on.
 */
export async function redeemOneTimeToken(
  tx: Queryable,
  token: unknown,
  purpose: TokenPurpose,
): Promise<{ ok: true; workspaceId: string; email: string } | { ok: false; state: Exclude<TokenState, 'valid'> }> {
  if (!looksLikeToken(token)) return { ok: false, state: 'unknown' };
  const [row] = await tx.query<{ workspace_id: string; email: string }>(
    `update public.auth_tokens set used_at = now()
     where token_hash = $1 and purpose = $2 and used_at is null and expires_at > now()
     returning workspace_id::text, email`,
    [hashToken(token), purpose],
  );
  if (row) return { ok: true, workspaceId: row.workspace_id, email: row.email };
  const info = await inspectOneTimeToken(tx, token, purpose);
  // A token that is still "valid" here lost a race that committed after our snapshot: it is used.
  return { ok: false, state: info.state === 'valid' ? 'used' : info.state };
}
