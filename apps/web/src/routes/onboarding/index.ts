import type { FastifyPluginAsync } from 'fastify';
import type { BrainConfig } from '@brain/config';
import { coerceError, isAppError } from '@brain/errors';
import type { OnboardingDeps } from '../../deps.ts';
import { sendAppError } from '../../pages/message-page.ts';
import { BrowserSession } from '../../security/browser-session.ts';
import { billingRoutes } from './billing.ts';
import { claimRoutes } from './claim.ts';
import type { OnboardingContext } from './context.ts';
import { devOutboxRoute } from './dev-outbox.ts';
import { installRoutes } from './install.ts';

const FORM_LIMIT_BYTES = 16 * 1024;

/**
 * Install, claim and billing pages, in their own scope: HTML forms are parsed here only, and
 * errors render as pages (with the AppError's message and next step) rather than JSON.
 */
export const onboardingRoutes: FastifyPluginAsync<{ deps: OnboardingDeps; config: BrainConfig }> = async (app, { deps, config }) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  app.setErrorHandler((error, request, reply) => {
    const appError = coerceError(error);
    const status = isAppError(error) ? appError.httpStatus : ((error as { statusCode?: number }).statusCode ?? 500);
    if (status >= 500) request.log.error({ err: error, code: appError.code }, 'page failed');
    else request.log.warn({ code: appError.code, message: appError.message }, 'page refused');
    return sendAppError(reply, appError, status);
  });

  const ctx: OnboardingContext = { ...deps, config, session: new BrowserSession(deps.signer, config.publicUrl) };
  await app.register(installRoutes, { ctx });
  await app.register(claimRoutes, { ctx });
  await app.register(billingRoutes, { ctx });
  if (deps.devOutbox) await app.register(devOutboxRoute, { outbox: deps.devOutbox });
};
