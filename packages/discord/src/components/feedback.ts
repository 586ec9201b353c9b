import type { ButtonHandler } from '../interactions/types.ts';
import { FEEDBACK_PREFIX } from '../render/answer-message.ts';
import { notice } from '../render/notice.ts';
import { recordAnswerFeedback } from '../queries/record-feedback.ts';

/** 👍 / 👎 under an answer: stored on its queries row, confirmed privately to whoever pressed it. */
export const feedbackButton: ButtonHandler = {
  prefix: FEEDBACK_PREFIX,
  acknowledge: () => ({ kind: 'defer', ephemeral: true }),
  async run(ctx) {
    const [, vote, queryId = ''] = ctx.interaction.data.custom_id.split(':');
    const feedback = vote === 'up' ? 'up' : 'down';
    const stored = await recordAnswerFeedback(ctx.deps.db, ctx.workspaceId, { queryId, feedback, by: ctx.user.id });
    await ctx.responder.edit(
      stored
        ? notice(feedback === 'up' ? '👍 Thanks — noted that this answer helped.' : '👎 Thanks — noted that this answer missed. Saving a better source with `/save` helps the next one.')
        : notice("I couldn't find that answer any more, so the vote was not recorded."),
    );
  },
};
