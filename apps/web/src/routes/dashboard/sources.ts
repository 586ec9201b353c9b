import { channelAudience, EVERYTHING, withWorkspace, type AudienceKey } from '@brain/db';
import { audienceKeysWithSources, changeAudience, guildChannels, listSyncedChannels } from '@brain/discord';
import { AppError } from '@brain/errors';
import type { FastifyPluginAsync } from 'fastify';
import { forgetSource, listSources, requeueSource, restoreSource } from '@brain/ingest';
import { sendDashboardPage } from '../../pages/dashboard/layout.ts';
import { SOURCE_FILTERS, SOURCE_NOTICES, sourcesPage, type SourceFilter } from '../../pages/dashboard/sources-page.ts';
import { syncedChannelsSection } from '../../pages/dashboard/synced-channels-section.ts';
import { formOf, paramOf, queryOf } from '../form-body.ts';
import { signedIn, type DashboardContext } from './context.ts';

/** The form's `to`: everyone, or one channel's readers; anything else is refused before the database. */
function parseAudience(value: unknown): AudienceKey {
  if (value === 'workspace') return 'workspace';
  const channel = typeof value === 'string' ? /^channel:([0-9]{1,20})$/.exec(value)?.[1] : undefined;
  if (channel) return channelAudience(channel);
  throw new AppError({ code: 'AUDIENCE_INVALID', message: 'Choose everyone in the server, or one channel’s readers.', httpStatus: 400 });
}

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
      const workspaceId = signed.session.workspaceId;
      const [synced, { keys, channels }] = await Promise.all([
        listSyncedChannels(ctx.db, workspaceId),
        withWorkspace(ctx.db, workspaceId, async (tx) => ({ keys: await audienceKeysWithSources(tx), channels: await guildChannels(tx) })),
      ]);
      // Every channel of the guild the bot can view is offered (from the stored guild facts), not
      // only those that already have sources or are synced.
      const channelNames = new Map([
        ...channels.map((c) => [c.id, c.name] as const),
        ...synced.flatMap((c) => (c.channelName ? [[c.channelId, c.channelName] as const] : [])),
      ]);
      const offered = [...keys, ...synced.map((c) => channelAudience(c.channelId)), ...channels.map((c) => channelAudience(c.id))];
      const choices = { keys: [...new Set(offered)].sort(), channelNames };
      return sendDashboardPage(reply, 200, {
        title: 'Sources',
        section: 'sources',
        signedIn: signed,
        notice: SOURCE_NOTICES[query.done ?? ''],
        body: sourcesPage(page, filter, signed.csrf('sources'), choices, syncedChannelsSection(synced)),
      });
    }),
  );

  const ACTIONS = {
    forget: async (workspaceId: string, id: string) => (await forgetSource(ctx.db, workspaceId, id, { audience: EVERYTHING }), 'forgotten'),
    restore: async (workspaceId: string, id: string) => (await restoreSource(ctx.db, workspaceId, id, { audience: EVERYTHING }), 'restored'),
    reindex: async (workspaceId: string, id: string) => ((await requeueSource(ctx.db, workspaceId, id)).queued ? 'reindexing' : 'already-queued'),
  } as const;

  // The same operation as /audience: one transaction that moves the source and records who did it.
  app.post(
    '/dashboard/sources/:id/audience',
    signedIn(ctx, async (request, reply, { session }) => {
      const form = formOf(request);
      ctx.auth.checkCsrf(session, 'sources', form.csrf);
      const to = parseAudience(form.to);
      const changed = await changeAudience(ctx.db, session.workspaceId, paramOf(request, 'id'), to, `dashboard:${session.email}`.slice(0, 254), EVERYTHING);
      request.log.info({ workspaceId: session.workspaceId, sourceId: paramOf(request, 'id'), from: changed?.from, to }, 'dashboard: audience changed');
      return reply.redirect(`/dashboard/sources?done=${changed ? 'audience-changed' : 'audience-unchanged'}`, 303);
    }),
  );

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
