import { recordFeedback } from '@brain/answer';
import { withWorkspace } from '@brain/db';
import type { ButtonHandler } from '../interactions/types.ts';
import { FEEDBACK_PREFIX } from '../render/answer-message.ts';
import { notice } from '../render/notice.ts';

/** 👍 / 👎 under an answer: stored on its queries row, confirmed privately to whoever pressed it. */
export const feedbackButton: ButtonHandler = {
  prefix: FEEDBACK_PREFIX,
  acknowledge: () => ({ kind: 'defer', ephemeral: true }),
  async run(ctx) {
    const [, vote, queryId = ''] = ctx.interaction.data.custom_id.split(':');
    const feedback = vote === 'up' ? 'up' : 'down';
    const stored = await withWorkspace(ctx.deps.db, ctx.workspaceId, (tx) => recordFeedback(tx, { queryId, feedback, feedbackBy: ctx.user.id }));
    await ctx.responder.edit(
      stored
        ? notice(feedback === 'up' ? '👍 Thanks — noted that this answer helped.' : '👎 Thanks — noted that this answer missed. Saving a better source with `/save` helps the next one.')
        : notice("I couldn't find that answer any more, so the vote was not recorded."),
    );
  },
};
