import { withService, type Database } from '@brain/db';
import type { Logger } from '@brain/observability';
import type { BackgroundTasks } from '../background-tasks.ts';
import { normalizeEmail } from '../email-address.ts';
import type { MagicLinkMailer } from '../mail/mailer.ts';
import { LIMITS } from '../rate-limit/limits.ts';
import type { RateLimiter } from '../rate-limit/rate-limiter.ts';
import { issueOneTimeToken, type TokenPurpose } from '../tokens/one-time-token.ts';

export interface MagicLinkContext {
  db: Database;
  mailer: MagicLinkMailer;
  logger: Logger;
  /** PUBLIC_URL: links are built from it, never from a request's Host header. */
  publicUrl: string;
  limiter: RateLimiter;
  background: BackgroundTasks;
}

/** Where each purpose's link lands (the dashboard serves /login/confirm). */
export const MAGIC_LINK_PATHS: Record<TokenPurpose, string> = {
  claim: '/claim/confirm',
  login: '/login/confirm',
};

export interface MagicLinkRequest {
  purpose: TokenPurpose;
  workspaceId: string;
  email: unknown;
  /** The client's address, for the per-IP limit. */
  ip: string;
}

/**
 * Accepts a request for a magic link and answers the same way whatever happens next: the
 * address is checked for shape and the per-IP and per-workspace limits are taken here (the
 * same work for every address); deciding whether a link is due, issuing it and sending it run
 * after the response. So a known and an unknown address get the same answer in the same time.
 */
export async function requestMagicLink(ctx: MagicLinkContext, request: MagicLinkRequest): Promise<void> {
  const email = normalizeEmail(request.email);
  await ctx.limiter.take(`link:ip:${request.ip}`, LIMITS.linkRequestsPerIp, 'link requests from your network');
  await ctx.limiter.take(`link:ws:${request.workspaceId}`, LIMITS.linkRequestsPerWorkspace, 'link requests for this workspace');
  ctx.background.run(`send ${request.purpose} link`, () => issueAndSend(ctx, request.purpose, request.workspaceId, email, request.ip));
}

async function issueAndSend(ctx: MagicLinkContext, purpose: TokenPurpose, workspaceId: string, email: string, ip: string): Promise<void> {
  if (!(await allowedForAddress(ctx, email, ip, purpose))) return;
  await sendLinkIfDue(ctx, purpose, workspaceId, email);
}

/**
 * The silent per-address limit: over it, nothing is sent and the page still looks the same. It
 * counts the address and the requester (the client's IP) together: keyed on the address alone,
 * anyone who knows the owner's address could spend it and lock the owner out of their own login.
 * Mail to one address is then bounded per requester, and the per-IP limit bounds each requester.
 */
export async function allowedForAddress(ctx: MagicLinkContext, email: string, ip: string, purpose: TokenPurpose): Promise<boolean> {
  const perEmail = await ctx.limiter.hit(`link:email:${email}:from:${ip}`, LIMITS.linkRequestsPerEmail);
  if (!perEmail.allowed) ctx.logger.warn({ purpose }, 'magic link not sent: too many requests for this address from this requester');
  return perEmail.allowed;
}

/**
 * Issues and sends one link when it is due: a claim link only for an unclaimed workspace, a
 * login link only to the workspace's owner. Runs after the response (see requestMagicLink).
 */
export async function sendLinkIfDue(ctx: MagicLinkContext, purpose: TokenPurpose, workspaceId: string, email: string): Promise<void> {
  const issued = await withService(ctx.db, async (tx) => {
    const [workspace] = await tx.query<{ name: string; claim_email: string | null }>(
      'select name, claim_email from public.workspaces where id = $1 for update',
      [workspaceId],
    );
    // A claim link only for an unclaimed workspace; a login link only for its owner's address.
    const due = workspace && (purpose === 'claim' ? workspace.claim_email === null : workspace.claim_email === email);
    if (!due) return undefined;
    const { token, expiresAt } = await issueOneTimeToken(tx, { workspaceId, purpose, email });
    return { token, expiresAt, workspaceName: workspace.name };
  });
  if (!issued) {
    ctx.logger.info({ purpose, workspaceId }, 'magic link not due: nothing sent');
    return;
  }
  const url = new URL(MAGIC_LINK_PATHS[purpose], `${ctx.publicUrl}/`);
  url.searchParams.set('token', issued.token);
  await ctx.mailer.send({ to: email, purpose, url: url.toString(), workspaceName: issued.workspaceName, expiresAt: issued.expiresAt });
  ctx.logger.info({ purpose, workspaceId, mailer: ctx.mailer.kind }, 'magic link sent');
}
