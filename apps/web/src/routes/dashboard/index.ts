import type { FastifyPluginAsync } from 'fastify';
import type { BrainConfig } from '@brain/config';
import type { Database } from '@brain/db';
import type { OnboardingDeps } from '../../deps.ts';
import { BrowserSession } from '../../security/browser-session.ts';
import { DashboardAuth } from '../../security/dashboard-auth.ts';
import { useHostGuard } from '../../security/host-guard.ts';
import { usePageScope } from '../page-scope.ts';
import { autoAnswersRoute } from './auto-answers.ts';
import type { DashboardContext } from './context.ts';
import { loginRoutes } from './login.ts';
import { overviewRoute } from './overview.ts';
import { questionsRoutes } from './questions.ts';
import { settingsRoutes } from './settings.ts';
import { sourcesRoutes } from './sources.ts';

/**
 * The operator dashboard: /login by magic link to the claimed address, then /dashboard's pages,
 * server-rendered without scripts. Every page reads as the session's workspace (withWorkspace:
 * Row Level Security), never from an id the browser sends.
 */
export const dashboardRoutes: FastifyPluginAsync<{ deps: OnboardingDeps; config: BrainConfig; db: Database }> = async (app, { deps, config, db }) => {
  usePageScope(app);
  // Browser pages (and the dev outbox's live links): refused under a foreign Host (DNS rebinding).
  useHostGuard(app, config.publicUrl);
  const browser = new BrowserSession(deps.signer, config.publicUrl);
  const ctx: DashboardContext = {
    config,
    db,
    accounts: deps.accounts,
    billing: deps.billing,
    browser,
    auth: new DashboardAuth(deps.accounts, deps.signer, browser),
    devOutbox: deps.devOutbox !== undefined,
  };
  await app.register(loginRoutes, { ctx });
  await app.register(overviewRoute, { ctx });
  await app.register(questionsRoutes, { ctx });
  await app.register(sourcesRoutes, { ctx });
  await app.register(autoAnswersRoute, { ctx });
  await app.register(settingsRoutes, { ctx });
};
