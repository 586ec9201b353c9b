import { withService } from '@brain/db';
import { describeLink, type LinkView } from '../tokens/describe-link.ts';
import { redeemOneTimeToken } from '../tokens/one-time-token.ts';
import { getWorkspaceSummary, type WorkspaceSummary } from '../workspace-summary.ts';
import type { MagicLinkContext } from './magic-links.ts';
import { verifyLinkBeforeRedeem, type LinkRedemptionInput } from './verify-link.ts';

export type ClaimFailure = 'used' | 'expired' | 'unknown' | 'claimed_by_other';

export type ClaimResult =
  | { ok: true; workspace: WorkspaceSummary; email: string; alreadyOwner: boolean }
  | { ok: false; reason: ClaimFailure; workspace?: WorkspaceSummary | undefined };

export type ClaimLinkView = LinkView;

/** What the confirm page's GET shows. Consumes nothing: mail scanners open links too. */
export async function describeClaimLink(ctx: MagicLinkContext, token: unknown): Promise<ClaimLinkView> {
  return describeLink(ctx.db, 'claim', token);
}

/**
 * The confirm page's POST. After the mailbox proof, one transaction consumes our token and sets
 * claim_email only where it is still unset. Of concurrent redemptions exactly one succeeds; the
 * others learn that the link was used. The owner is never overwritten: the UPDATE matches no
 * claimed row, and the database's trigger would refuse it if it did.
 */
export async function redeemClaim(ctx: MagicLinkContext, input: LinkRedemptionInput): Promise<ClaimResult> {
  const checked = await verifyLinkBeforeRedeem(ctx, 'claim', input);
  if (!checked.ok) {
    const workspace = checked.info.workspaceId
      ? await withService(ctx.db, (tx) => getWorkspaceSummary(tx, checked.info.workspaceId as string))
      : undefined;
    return { ok: false, reason: checked.state, workspace };
  }

  const result = await withService(ctx.db, async (tx): Promise<ClaimResult> => {
    const redeemed = await redeemOneTimeToken(tx, input.token, 'claim');
    if (!redeemed.ok) return { ok: false, reason: redeemed.state, workspace: await getWorkspaceSummary(tx, checked.info.workspaceId) };
    const claimed = await tx.query(
      `update public.workspaces set claim_email = $2, claimed_at = now()
       where id = $1 and claim_email is null returning id`,
      [redeemed.workspaceId, redeemed.email],
    );
    const workspace = await getWorkspaceSummary(tx, redeemed.workspaceId);
    if (!workspace) return { ok: false, reason: 'unknown' };
    if (claimed.length === 1) return { ok: true, workspace, email: redeemed.email, alreadyOwner: false };
    if (workspace.claimEmail === redeemed.email) return { ok: true, workspace, email: redeemed.email, alreadyOwner: true };
    return { ok: false, reason: 'claimed_by_other', workspace };
  });
  ctx.logger.info(
    { workspaceId: result.workspace?.id, ok: result.ok, reason: result.ok ? undefined : result.reason },
    'claim redemption',
  );
  return result;
}
