import { withWorkspace } from '@brain/db';
import { AUTO_VOTE_PREFIX, autoAnswerIdOf } from '../autoanswer/auto-answer-buttons.ts';
import { recordAutoAnswerVote } from '../autoanswer/record-auto-answer-vote.ts';
import type { ButtonHandler } from '../interactions/types.ts';
import { notice } from '../render/notice.ts';

/** 👍 / 👎 under an auto-answer: one vote per person (pressing again changes it), confirmed privately with the tally. */
export const autoAnswerVoteButton: ButtonHandler = {
  prefix: AUTO_VOTE_PREFIX,
  acknowledge: () => ({ kind: 'defer', ephemeral: true }),
  async run(ctx) {
    const customId = ctx.interaction.data.custom_id;
    const vote = customId.split(':')[1] === 'up' ? 'up' : 'down';
    const autoAnswerId = autoAnswerIdOf(customId);
    const counts = autoAnswerId
      ? await withWorkspace(ctx.deps.db, ctx.workspaceId, (tx) => recordAutoAnswerVote(tx, { workspaceId: ctx.workspaceId, autoAnswerId, userId: ctx.user.id, vote }))
      : undefined;
    if (!counts) {
      await ctx.responder.edit(notice("I couldn't find that answer any more, so the vote was not recorded."));
      return;
    }
    const tally = `So far: ${counts.up} 👍 · ${counts.down} 👎.`;
    await ctx.responder.edit(
      notice(vote === 'up' ? `👍 Thanks — noted that this answer helped. ${tally}` : `👎 Thanks — noted that this answer missed. ${tally} “Still need help?” asks the team.`),
    );
  },
};
