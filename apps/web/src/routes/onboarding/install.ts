import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { buildInstallUrl, exchangeInstallCode } from '@brain/accounts';
import { DEFAULT_DISCORD_API_BASE } from '@brain/config';
import { installCanceled, installNotConfigured, installStateMismatch } from '../../pages/install-pages.ts';
import { sendPage } from '../../pages/send-page.ts';
import { installGrant, queryOf, type OnboardingContext } from './context.ts';

const STATE_COOKIE = 'brain_install_state';
const STATE_TTL_SECONDS = 600;

/**
 * GET /install → Discord's authorize page, with a `state` that only this browser holds (an
 * HttpOnly, SameSite=Lax cookie scoped to /install). GET /install/callback checks it, trades the
 * code for the guild, upserts the workspace and sends the browser on to its claim page.
 */
export const installRoutes: FastifyPluginAsync<{ ctx: OnboardingContext }> = async (app, { ctx }) => {
  const { config, session } = ctx;
  const redirectUri = `${config.publicUrl}/install/callback`;

  app.get('/install', async (request, reply) => {
    const clientId = config.discord.applicationId;
    if (!clientId || !config.discord.installConfigured) {
      return sendPage(reply, 503, 'Install is not configured', installNotConfigured(config.publicUrl));
    }
    const state = randomBytes(32).toString('base64url');
    session.browserId(request, reply);
    session.setCookie(reply, STATE_COOKIE, state, '/install', STATE_TTL_SECONDS);
    return reply.header('cache-control', 'no-store').redirect(buildInstallUrl({ oauthBase: config.discord.oauthBase, clientId, redirectUri, state }), 302);
  });

  app.get('/install/callback', async (request, reply) => {
    const query = queryOf(request);
    const expected = session.cookie(request, STATE_COOKIE);
    session.clearCookie(reply, STATE_COOKIE, '/install');
    if (!sameState(expected, query.state)) {
      return sendPage(reply, 400, 'Install not confirmed', installStateMismatch());
    }
    if (query.error) return sendPage(reply, 200, 'Nothing was added', installCanceled());
    const { applicationId, clientSecret } = config.discord;
    if (!applicationId || !clientSecret || !query.code) {
      return sendPage(reply, 503, 'Install is not configured', installNotConfigured(config.publicUrl));
    }
    const guild = await exchangeInstallCode({
      apiBase: config.discord.apiBase ?? DEFAULT_DISCORD_API_BASE,
      clientId: applicationId,
      clientSecret,
      code: query.code,
      redirectUri,
      ...(ctx.fetch ? { fetch: ctx.fetch } : {}),
    });
    const workspace = await ctx.accounts.install(guild, request.ip);
    installGrant.set(ctx, request, reply, workspace.id);
    return reply.header('cache-control', 'no-store').redirect(`/claim?workspace=${encodeURIComponent(workspace.id)}`, 303);
  });
};

function sameState(expected: string | undefined, given: string | undefined): boolean {
  if (!expected || !given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
