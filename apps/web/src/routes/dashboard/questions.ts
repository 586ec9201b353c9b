import type { FastifyPluginAsync } from 'fastify';
import { QUESTION_FILTERS, loadQuestion, loadQuestions, type QuestionFilter } from '@brain/insights';
import { sendDashboardPage } from '../../pages/dashboard/layout.ts';
import { questionPage } from '../../pages/dashboard/question-page.ts';
import { questionsPage } from '../../pages/dashboard/questions-page.ts';
import { sendMessage } from '../../pages/message-page.ts';
import { paramOf, queryOf } from '../form-body.ts';
import { signedIn, type DashboardContext } from './context.ts';

const parseFilter = (value: unknown): QuestionFilter => ((QUESTION_FILTERS as readonly unknown[]).includes(value) ? (value as QuestionFilter) : 'all');

/** GET /dashboard/questions (filter, keyset pages) and GET /dashboard/questions/:id. */
export const questionsRoutes: FastifyPluginAsync<{ ctx: DashboardContext }> = async (app, { ctx }) => {
  app.get(
    '/dashboard/questions',
    signedIn(ctx, async (request, reply, signed) => {
      const query = queryOf(request);
      const filter = parseFilter(query.filter);
      const data = await loadQuestions(ctx.db, signed.session.workspaceId, { filter, cursor: query.after || undefined });
      return sendDashboardPage(reply, 200, { title: 'Questions', section: 'questions', signedIn: signed, body: questionsPage(data, filter) });
    }),
  );

  app.get(
    '/dashboard/questions/:id',
    signedIn(ctx, async (request, reply, signed) => {
      const data = await loadQuestion(ctx.db, signed.session.workspaceId, paramOf(request, 'id'));
      if (!data) return sendMessage(reply, 404, 'No such question', 'It is not a question asked in this server.');
      return sendDashboardPage(reply, 200, { title: 'Question', section: 'questions', signedIn: signed, body: questionPage(data) });
    }),
  );
};
