import { withService } from '@brain/db';
import { allowedForAddress, sendLinkIfDue, type MagicLinkContext } from '../claim/magic-links.ts';
import { normalizeEmail } from '../email-address.ts';
import { LIMITS } from '../rate-limit/limits.ts';

/** An address rarely owns more than a few servers; past this, the oldest claims get links. */
const MAX_LINKS_PER_REQUEST = 10;

/**
 * The dashboard's login form names only an address. The response is the same whatever it owns:
 * the shape check and the per-IP limit run here, for every address; finding the workspaces it
 * owns and sending one login link per workspace (each mail names its server) run after the
 * response, so neither the answer nor its timing says whether the address owns anything.
 */
export async function requestLoginLinks(ctx: MagicLinkContext, request: { email: unknown; ip: string }): Promise<void> {
  const email = normalizeEmail(request.email);
  await ctx.limiter.take(`link:ip:${request.ip}`, LIMITS.linkRequestsPerIp, 'link requests from your network');
  ctx.background.run('send login links', () => sendLoginLinks(ctx, email));
}

async function sendLoginLinks(ctx: MagicLinkContext, email: string): Promise<void> {
  if (!(await allowedForAddress(ctx, email, 'login'))) return;
  const owned = await withService(ctx.db, (tx) =>
    tx.query<{ id: string }>('select id::text from public.workspaces where claim_email = $1 order by claimed_at, id limit $2', [
      email,
      MAX_LINKS_PER_REQUEST,
    ]),
  );
  if (owned.length === 0) ctx.logger.info('login link not due: the address owns no workspace');
  for (const { id } of owned) {
    const perWorkspace = await ctx.limiter.hit(`link:ws:${id}`, LIMITS.linkRequestsPerWorkspace);
    if (!perWorkspace.allowed) {
      ctx.logger.warn({ workspaceId: id }, 'login link not sent: too many requests for this workspace');
      continue;
    }
    await sendLinkIfDue(ctx, 'login', id, email);
  }
}
