import type { FastifyPluginAsync } from 'fastify';
import type { BrainConfig } from '@brain/config';
import type { OnboardingDeps } from '../../deps.ts';
import { BrowserSession } from '../../security/browser-session.ts';
import { useHostGuard } from '../../security/host-guard.ts';
import { usePageScope } from '../page-scope.ts';
import { billingRoutes } from './billing.ts';
import { claimRoutes } from './claim.ts';
import type { OnboardingContext } from './context.ts';
import { devOutboxRoute } from './dev-outbox.ts';
import { installRoutes } from './install.ts';

/**
 * Install, claim and billing pages, in their own scope: HTML forms are parsed here only, and
 * errors render as pages (with the AppError's message and next step) rather than JSON.
 */
export const onboardingRoutes: FastifyPluginAsync<{ deps: OnboardingDeps; config: BrainConfig }> = async (app, { deps, config }) => {
  usePageScope(app);
  // Browser pages (and the dev outbox's live links): refused under a foreign Host (DNS rebinding).
  useHostGuard(app, config.publicUrl);

  const ctx: OnboardingContext = { ...deps, config, session: new BrowserSession(deps.signer, config.publicUrl) };
  await app.register(installRoutes, { ctx });
  await app.register(claimRoutes, { ctx });
  await app.register(billingRoutes, { ctx });
  if (deps.devOutbox) await app.register(devOutboxRoute, { outbox: deps.devOutbox });
};
