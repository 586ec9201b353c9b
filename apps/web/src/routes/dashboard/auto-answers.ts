import type { FastifyPluginAsync } from 'fastify';
import { loadAutoAnswerOutcomes } from '@brain/discord';
import { parseWindowDays } from '@brain/insights';
import { autoAnswersPage } from '../../pages/dashboard/auto-answers-page.ts';
import { sendDashboardPage } from '../../pages/dashboard/layout.ts';
import { queryOf } from '../form-body.ts';
import { signedIn, type DashboardContext } from './context.ts';

/** GET /dashboard/auto-answers: outcome counts, votes and recent triggers per channel, over 7, 30 or 90 days. */
export const autoAnswersRoute: FastifyPluginAsync<{ ctx: DashboardContext }> = async (app, { ctx }) => {
  app.get(
    '/dashboard/auto-answers',
    signedIn(ctx, async (request, reply, signed) => {
      const data = await loadAutoAnswerOutcomes(ctx.db, signed.session.workspaceId, { days: parseWindowDays(queryOf(request).days) });
      return sendDashboardPage(reply, 200, { title: 'Auto-answers', section: 'auto-answers', signedIn: signed, body: autoAnswersPage(data) });
    }),
  );
};
