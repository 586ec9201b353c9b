import { interactionAudience } from '../audience/interaction-audience.ts';
import type { ButtonHandler } from '../interactions/types.ts';
import { CITED_SOURCES_PREFIX } from '../render/answer-message.ts';
import { citedSourcesMessage } from '../render/cited-sources.ts';
import { notice } from '../render/notice.ts';
import { loadCitedPassages } from '../queries/load-cited-passages.ts';

/** "Sources" under an answer: the cited passages with excerpts, visible only to whoever asked for them. */
export const citedSourcesButton: ButtonHandler = {
  prefix: CITED_SOURCES_PREFIX,
  acknowledge: () => ({ kind: 'defer', ephemeral: true }),
  async run(ctx) {
    const queryId = ctx.interaction.data.custom_id.split(':')[1] ?? '';
    // The excerpts go to the clicker alone: what they can read themselves.
    const { filter } = await interactionAudience(ctx.deps, ctx.workspaceId, ctx.interaction, 'member');
    const passages = await loadCitedPassages(ctx.deps.db, ctx.workspaceId, queryId, filter);
    await ctx.responder.edit(passages ? citedSourcesMessage(passages) : notice("I couldn't find that answer any more."));
  },
};
