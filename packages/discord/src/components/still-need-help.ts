import { withWorkspace } from '@brain/db';
import { autoAnswerIdOf, STILL_NEED_HELP_PREFIX } from '../autoanswer/auto-answer-buttons.ts';
import { noStaffRoleLine, staffPingLine } from '../autoanswer/messages.ts';
import { silenceThread, unsilenceThread } from '../autoanswer/silence-thread.ts';
import type { ButtonHandler } from '../interactions/types.ts';
import { notice } from '../render/notice.ts';

/**
 * "Still need help?" under an auto-answer: pings the channel's staff role in the thread (a new
 * follow-up message, since an edit never notifies) and silences the bot there. The presser is told
 * privately what happened, or, without a staff role, who can set one.
 */
export const stillNeedHelpButton: ButtonHandler = {
  prefix: STILL_NEED_HELP_PREFIX,
  acknowledge: () => ({ kind: 'defer', ephemeral: true }),
  async run(ctx) {
    const autoAnswerId = autoAnswerIdOf(ctx.interaction.data.custom_id);
    const db = ctx.deps.db;
    const result = autoAnswerId
      ? await withWorkspace(db, ctx.workspaceId, (tx) => silenceThread(tx, { workspaceId: ctx.workspaceId, autoAnswerId, userId: ctx.user.id }))
      : ({ kind: 'unknown' } as const);
    switch (result.kind) {
      case 'unknown':
        await ctx.responder.edit(notice("I couldn't find that answer any more. Mention a moderator in the thread instead."));
        return;
      case 'no-staff-role':
        ctx.log.warn({ channelId: result.channelId }, '"Still need help?" pressed in a channel without a staff role');
        await ctx.responder.edit(notice(noStaffRoleLine(result.channelId)));
        return;
      case 'already':
        await ctx.responder.edit(notice(`The team was already asked here <t:${Math.floor(result.silencedAt.getTime() / 1000)}:R>; they’ll follow up in this thread.`));
        return;
      case 'silenced': {
        const delivered = await ctx.responder.followUp({ ...notice(staffPingLine(result.staffRoleId, ctx.user.id)), pingRoles: [result.staffRoleId] }, {}, ctx.signal);
        if (delivered !== 'sent') {
          await withWorkspace(db, ctx.workspaceId, (tx) => unsilenceThread(tx, autoAnswerId as string));
          ctx.log.warn({ delivered, threadId: result.threadId }, '"Still need help?": the staff ping could not be posted');
          await ctx.responder.edit(notice('I couldn’t post in this thread to ping the team. Mention a moderator here, or try again in a moment.'));
          return;
        }
        ctx.log.info({ threadId: result.threadId, staffRoleId: result.staffRoleId }, '"Still need help?": staff pinged, thread silenced');
        await ctx.responder.edit(notice(`Done: I pinged <@&${result.staffRoleId}> in this thread, and I’ll stay quiet here from now on.`));
      }
    }
  },
};
