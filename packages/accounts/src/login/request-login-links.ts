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
  ctx.background.run('send login links', () => sendLoginLinks(ctx, email, request.ip));
}

async function sendLoginLinks(ctx: MagicLinkContext, email: string, ip: string): Promise<void> {
  if (!(await allowedForAddress(ctx, email, ip, 'login'))) return;
  const owned = await withService(ctx.db, (tx) =>
    tx.query<{ id: string }>('select id::text from public.workspaces where claim_email = $1 order by claimed_at, id limit $2', [
      email,
      MAX_LINKS_PER_REQUEST,
    ]),
  );
  if (owned.length === 0) ctx.logger.info('login link not due: the address owns no workspace');
  // No per-workspace limit here: only the owner's address reaches its workspaces, and that is
  // bounded per requester above. A shared per-workspace count would let others lock the owner out.
  for (const { id } of owned) await sendLinkIfDue(ctx, 'login', id, email);
}
