import { withService } from '@brain/db';
import { LIMITS } from '../rate-limit/limits.ts';
import { inspectOneTimeToken, type TokenInfo, type TokenPurpose, type TokenState } from '../tokens/one-time-token.ts';
import type { MagicLinkContext } from './magic-links.ts';

export interface LinkRedemptionInput {
  token: unknown;
  /** What came back with the link besides our token (Supabase's token_hash and type). */
  tokenHash?: string | undefined;
  type?: string | undefined;
  ip: string;
}

/**
 * The common first half of redeeming a link: the per-IP limit, the token still valid (looked
 * at, not consumed), and the mailer's own proof of the mailbox (Supabase's single-use
 * token_hash). The caller then consumes the token in its own transaction.
 */
export async function verifyLinkBeforeRedeem(
  ctx: MagicLinkContext,
  purpose: TokenPurpose,
  input: LinkRedemptionInput,
): Promise<{ ok: true; info: TokenInfo & { email: string; workspaceId: string } } | { ok: false; state: Exclude<TokenState, 'valid'>; info: TokenInfo }> {
  await ctx.limiter.take(`redeem:ip:${input.ip}`, LIMITS.redeemsPerIp, 'attempts from your network');
  const info = await withService(ctx.db, (tx) => inspectOneTimeToken(tx, input.token, purpose));
  if (info.state !== 'valid' || !info.email || !info.workspaceId) {
    return { ok: false, state: info.state === 'valid' ? 'unknown' : info.state, info };
  }
  await ctx.mailer.verify({ email: info.email, tokenHash: input.tokenHash, type: input.type });
  return { ok: true, info: { ...info, email: info.email, workspaceId: info.workspaceId } };
}
