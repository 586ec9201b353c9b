import { withService } from '@brain/db';
import type { MagicLinkContext } from '../claim/magic-links.ts';
import { verifyLinkBeforeRedeem, type LinkRedemptionInput } from '../claim/verify-link.ts';
import { redeemOneTimeToken, type TokenState } from '../tokens/one-time-token.ts';

export type LoginResult =
  | { ok: true; workspaceId: string; email: string }
  | { ok: false; reason: Exclude<TokenState, 'valid'> | 'not_owner' };

/**
 * An operator's login link (the dashboard): consumes the token, and succeeds only while its
 * address still owns the workspace. The caller starts a fresh session on success.
 */
export async function redeemLogin(ctx: MagicLinkContext, input: LinkRedemptionInput): Promise<LoginResult> {
  const checked = await verifyLinkBeforeRedeem(ctx, 'login', input);
  if (!checked.ok) return { ok: false, reason: checked.state };
  return withService(ctx.db, async (tx): Promise<LoginResult> => {
    const redeemed = await redeemOneTimeToken(tx, input.token, 'login');
    if (!redeemed.ok) return { ok: false, reason: redeemed.state };
    const [owner] = await tx.query<{ claim_email: string | null }>('select claim_email from public.workspaces where id = $1', [
      redeemed.workspaceId,
    ]);
    if (owner?.claim_email !== redeemed.email) return { ok: false, reason: 'not_owner' };
    return { ok: true, workspaceId: redeemed.workspaceId, email: redeemed.email };
  });
}
