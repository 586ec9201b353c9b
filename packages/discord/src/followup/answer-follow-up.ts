import { withWorkspace } from '@brain/db';
import type { QuestionRewriter } from '@brain/answer';
import type { AutoAnswerDeps } from '../autoanswer/answer-new-thread.ts';
import { answerInThread } from '../autoanswer/answer-in-thread.ts';
import { stillNeedHelpRow } from '../autoanswer/auto-answer-buttons.ts';
import { channelOverLimit } from '../autoanswer/channel-rate-limit.ts';
import { findAutoanswerChannel } from '../autoanswer/find-autoanswer-channel.ts';
import { RATE_LIMITED_LINE } from '../autoanswer/messages.ts';
import { errorCodeOf, recordUnansweredQuery } from '../autoanswer/record-unanswered-query.ts';
import { isThreadSilenced } from '../autoanswer/silence-thread.ts';
import { announce } from '../autoanswer/thread-courtesy.ts';
import type { ThreadMessage } from '../autoanswer/thread-message.ts';
import { workspaceOfGuild } from '../queries/find-workspace-by-guild.ts';
import { notice } from '../render/notice.ts';
import { answeredThread, claimFollowUp, firstAnswerSettled, finishFollowUp, recordRewrite, type FollowUpOutcome } from './follow-up-thread.ts';

export interface FollowUpDeps extends AutoAnswerDeps {
  rewriter: QuestionRewriter;
}

export type FollowUpSkip = 'bot' | 'not-addressed' | 'not-installed' | 'not-answered' | 'off' | 'silenced' | 'already-handled';

export type FollowUpResult = { handled: true; outcome: FollowUpOutcome; queryId: string | null } | { handled: false; skipped: FollowUpSkip };

const MAX_QUESTION = 2000;

/** Whether a message speaks to the bot: it mentions it, or replies to one of its messages. */
export function addressesBot(message: ThreadMessage, botUserId: string | undefined): boolean {
  if (!botUserId) return false;
  return (message.mentionedUserIds ?? []).includes(botUserId) || message.repliedToUserId === botUserId;
}

/**
 * A follow-up in a thread the bot auto-answered: a message that replies to the bot or mentions
 * it. The thread's recent questions (from the records, never the bot's own messages) let the
 * rewriter turn it into a question that stands alone; the rewrite is recorded with what was
 * written (follow_ups) and searched as surface follow_up, with the same audience (the parent's),
 * billing check and confidence gate as the auto-answer. One answer per message: it is claimed
 * before any work.
 */
export async function answerFollowUp(deps: FollowUpDeps, message: ThreadMessage): Promise<FollowUpResult> {
  if (message.fromBot || message.authorId === deps.botUserId) return { handled: false, skipped: 'bot' };
  if (!addressesBot(message, deps.botUserId)) return { handled: false, skipped: 'not-addressed' };
  const workspace = await workspaceOfGuild(deps, message.guildId);
  if (!workspace) return { handled: false, skipped: 'not-installed' };
  const original = withoutMention(message.content, deps.botUserId);
  await firstAnswerSettled(deps.db, workspace.id, message.threadId, deps.timeoutMs ?? 60_000);
  const claimed = await withWorkspace(deps.db, workspace.id, async (tx) => {
    const setting = await findAutoanswerChannel(tx, workspace.id, message.parentId);
    if (!setting) return 'off' as const;
    const thread = await answeredThread(tx, workspace.id, message.threadId);
    if (!thread) return 'not-answered' as const;
    if (await isThreadSilenced(tx, workspace.id, message.threadId)) return 'silenced' as const;
    const limited = await channelOverLimit(tx, { workspaceId: workspace.id, channelId: message.parentId, maxPerHour: setting.maxPerHour });
    const id = await claimFollowUp(tx, { workspaceId: workspace.id, channelId: message.parentId, threadId: message.threadId, messageId: message.messageId, askedBy: message.authorId, original });
    return id ? { id, setting, thread, limited } : ('already-handled' as const);
  });
  if (typeof claimed === 'string') return { handled: false, skipped: claimed };
  const log = deps.logger.child({ workspaceId: workspace.id, threadId: message.threadId, channelId: message.parentId, followUp: claimed.id });
  const finish = async (outcome: FollowUpOutcome, reason: string | null, queryId: string | null, replyMessageId: string | null, question = original): Promise<FollowUpResult> => {
    const recorded = await withWorkspace(deps.db, workspace.id, async (tx) => {
      // Every follow-up has its queries row, even one that never reached the pipeline.
      const id = queryId ?? (await recordUnansweredQuery(tx, { workspaceId: workspace.id, question, askedBy: message.authorId, interactionId: message.messageId, errorCode: errorCodeOf(reason, outcome), surface: 'follow_up' }));
      await finishFollowUp(tx, claimed.id, { outcome, reason, queryId: id, replyMessageId });
      return id;
    });
    log.info({ outcome, reason, queryId: recorded }, 'follow-up finished');
    return { handled: true, outcome, queryId: recorded };
  };
  // As under the first answer: every way of not answering says why, with a way to reach staff.
  const say = (line: string) => announce(deps.writer, log, message, { ...notice(line), components: stillNeedHelpRow(claimed.thread.autoAnswerId) });

  if (claimed.limited) {
    return finish('rate_limited', `AUTOANSWER_RATE_LIMITED: the channel had its ${claimed.setting.maxPerHour} answers of the last hour`, null, await say(RATE_LIMITED_LINE));
  }
  if (!original) return finish('failed', 'AUTOANSWER_EMPTY: the message has no text to answer', null, null);
  const signal = AbortSignal.timeout(deps.timeoutMs ?? 60_000);
  const rewrite = await deps.rewriter.rewrite({ earlier: claimed.thread.earlier, message: original, signal });
  if (rewrite.fallbackReason) log.warn({ reason: rewrite.fallbackReason }, 'follow-up: rewritten by the rule instead of the chat model');
  const question = rewrite.question.slice(0, MAX_QUESTION);
  await withWorkspace(deps.db, workspace.id, (tx) => recordRewrite(tx, claimed.id, question, rewrite.by));

  const answered = await answerInThread(deps, {
    workspaceId: workspace.id,
    message,
    question,
    surface: 'follow_up',
    whenUncovered: claimed.setting.whenUncovered,
    log,
    label: 'follow-up',
    say,
    signal,
    // The answer's own 👍/👎 and Sources (this follow-up's query), and the thread's "Still need help?".
    componentsFor: (_result, rendered) => [...(rendered ?? []), ...stillNeedHelpRow(claimed.thread.autoAnswerId)],
  });
  return finish(answered.outcome, answered.reason, answered.queryId, answered.replyMessageId, question);
}

/** The follow-up without the bot's mention: "<@123> and the default?" asks "and the default?". */
function withoutMention(content: string, botUserId: string | undefined): string {
  const text = botUserId ? content.replaceAll(new RegExp(`<@!?${botUserId}>`, 'g'), ' ') : content;
  return text.replace(/\s+/g, ' ').trim();
}
