import type { FastifyPluginAsync } from 'fastify';
import { loadOverview, parseWindowDays } from '@brain/insights';
import { sendDashboardPage } from '../../pages/dashboard/layout.ts';
import { overviewPage } from '../../pages/dashboard/overview-page.ts';
import { queryOf } from '../form-body.ts';
import { signedIn, type DashboardContext } from './context.ts';

/** GET /dashboard: the overview over a window of 7, 30 or 90 days. */
export const overviewRoute: FastifyPluginAsync<{ ctx: DashboardContext }> = async (app, { ctx }) => {
  app.get(
    '/dashboard',
    signedIn(ctx, async (request, reply, signed) => {
      const data = await loadOverview(ctx.db, signed.session.workspaceId, parseWindowDays(queryOf(request).days));
      return sendDashboardPage(reply, 200, { title: 'Overview', section: 'overview', signedIn: signed, body: overviewPage(data) });
    }),
  );
};
