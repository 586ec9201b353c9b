import { EVERYTHING } from '@brain/db';
import type { FastifyPluginAsync } from 'fastify';
import { forgetSource, listSources, requeueSource, restoreSource } from '@brain/ingest';
import { sendDashboardPage } from '../../pages/dashboard/layout.ts';
import { SOURCE_FILTERS, SOURCE_NOTICES, sourcesPage, type SourceFilter } from '../../pages/dashboard/sources-page.ts';
import { formOf, paramOf, queryOf } from '../form-body.ts';
import { signedIn, type DashboardContext } from './context.ts';

const parseFilter = (value: unknown): SourceFilter => ((SOURCE_FILTERS as readonly unknown[]).includes(value) ? (value as SourceFilter) : 'all');

/**
 * GET /dashboard/sources, and the three actions as POSTs (forget, restore, re-index), each run
 * as the session's workspace: a source id of another workspace is not found.
 */
export const sourcesRoutes: FastifyPluginAsync<{ ctx: DashboardContext }> = async (app, { ctx }) => {
  app.get(
    '/dashboard/sources',
    signedIn(ctx, async (request, reply, signed) => {
      const query = queryOf(request);
      const filter = parseFilter(query.status);
      const page = await listSources(ctx.db, signed.session.workspaceId, {
        status: filter === 'all' ? undefined : filter,
        includeForgotten: filter === 'all',
        cursor: query.after || undefined,
        limit: 50,
        // The dashboard is the operator's: every source, each with its audience.
        audience: EVERYTHING,
      });
      return sendDashboardPage(reply, 200, {
        title: 'Sources',
        section: 'sources',
        signedIn: signed,
        notice: SOURCE_NOTICES[query.done ?? ''],
        body: sourcesPage(page, filter, signed.csrf('sources')),
      });
    }),
  );

  const ACTIONS = {
    forget: async (workspaceId: string, id: string) => (await forgetSource(ctx.db, workspaceId, id, { audience: EVERYTHING }), 'forgotten'),
    restore: async (workspaceId: string, id: string) => (await restoreSource(ctx.db, workspaceId, id, { audience: EVERYTHING }), 'restored'),
    reindex: async (workspaceId: string, id: string) => ((await requeueSource(ctx.db, workspaceId, id)).queued ? 'reindexing' : 'already-queued'),
  } as const;

  for (const [action, run] of Object.entries(ACTIONS)) {
    app.post(
      `/dashboard/sources/:id/${action}`,
      signedIn(ctx, async (request, reply, { session }) => {
        ctx.auth.checkCsrf(session, 'sources', formOf(request).csrf);
        const done = await run(session.workspaceId, paramOf(request, 'id'));
        request.log.info({ workspaceId: session.workspaceId, sourceId: paramOf(request, 'id'), action }, 'dashboard source action');
        return reply.redirect(`/dashboard/sources?done=${done}`, 303);
      }),
    );
  }
};
