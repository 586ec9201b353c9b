import { listSources } from '@brain/ingest';
import { interactionAudience } from '../audience/interaction-audience.ts';
import type { ButtonHandler } from '../interactions/types.ts';
import { notice } from '../render/notice.ts';
import { parseSourcesPageId, renderSourcesPage, SOURCES_PAGE_PREFIX, SOURCES_PAGE_SIZE } from '../render/sources-page.ts';

/** First / Next under /sources: the list is replaced in place. */
export const sourcesPageButton: ButtonHandler = {
  prefix: SOURCES_PAGE_PREFIX,
  acknowledge: () => ({ kind: 'defer-update' }),
  async run(ctx) {
    const target = parseSourcesPageId(ctx.interaction.data.custom_id);
    if (!target) return void (await ctx.responder.edit(notice('That page button is out of date; run `/sources` again.')));
    const { filter, factsKnown } = await interactionAudience(ctx.deps, ctx.workspaceId, ctx.interaction, 'member');
    const page = await listSources(ctx.deps.db, ctx.workspaceId, { status: target.status, cursor: target.cursor, limit: SOURCES_PAGE_SIZE, audience: filter });
    await ctx.responder.edit(renderSourcesPage(page, { page: target.page, status: target.status, factsKnown }));
  },
};
