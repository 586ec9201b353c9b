import { withWorkspace, type Database } from '@brain/db';
import type { Logger } from '@brain/observability';
import type { GuildFactsSource } from '../audience/guild-facts-source.ts';
import type { AskFunction, EntitlementCheck } from '../interactions/types.ts';
import { workspaceOfGuild } from '../queries/find-workspace-by-guild.ts';
import { notice } from '../render/notice.ts';
import { answerInThread } from './answer-in-thread.ts';
import { autoAnswerButtons, stillNeedHelpRow } from './auto-answer-buttons.ts';
import { channelOverLimit } from './channel-rate-limit.ts';
import { claimAutoAnswer } from './claim-auto-answer.ts';
import { findAutoanswerChannel } from './find-autoanswer-channel.ts';
import { finishAutoAnswer, type AutoAnswerOutcome } from './finish-auto-answer.ts';
import { errorCodeOf, recordUnansweredQuery } from './record-unanswered-query.ts';
import { RATE_LIMITED_LINE } from './messages.ts';
import { announce } from './thread-courtesy.ts';
import { snowflakeMs, type ThreadMessage } from './thread-message.ts';
import type { ThreadWriter } from './thread-writer.ts';

export interface AutoAnswerDeps {
  db: Database;
  logger: Logger;
  ask: AskFunction;
  checkEntitlement: EntitlementCheck;
  /** The guild's roles and overwrites; absent: the thread cites only its own and its parent's sources. */
  guildFacts?: GuildFactsSource | undefined;
  writer: ThreadWriter;
  /** The bot's own user id: its messages are never a trigger. */
  botUserId?: string | undefined;
  /** Per answer: the ask and every post together. */
  timeoutMs?: number;
  /** The workspace of a guild (default: the installed one, by guild id); the playground maps its pretend server to the local workspace. */
  workspaceOf?: ((guildId: string) => Promise<{ id: string } | undefined>) | undefined;
}

/** Why a message was not taken up, for the logs and the tests; 'claimed' means it was handled here. */
export type AutoAnswerSkip = 'bot' | 'not-installed' | 'off' | 'older-than-setting' | 'already-handled' | 'empty';

export type AutoAnswerResult = { handled: true; outcome: AutoAnswerOutcome; queryId: string | null } | { handled: false; skipped: AutoAnswerSkip };

/** Discord allows 6,000; the answerer refuses more than 2,000 (as /ask). */
const MAX_QUESTION = 2000;

/**
 * The first auto-answer of a thread in a channel with /autoanswer on: one reply in the thread,
 * grounded and cited like /ask through the same pipeline, citing only what the thread's readers
 * (its parent's audience) may read. Confidence-gated: when the pipeline finds nothing that covers
 * the question (no passage, the coverage gate, no valid citation) nothing is posted but the
 * channel's chosen reaction or short line, and the claim records why. At most one per thread:
 * the claim is taken before any work, so replays and other workers find it taken.
 */
export async function answerNewThread(deps: AutoAnswerDeps, message: ThreadMessage): Promise<AutoAnswerResult> {
  if (message.fromBot || message.authorId === deps.botUserId) return { handled: false, skipped: 'bot' };
  const workspace = await workspaceOfGuild(deps, message.guildId);
  if (!workspace) return { handled: false, skipped: 'not-installed' };
  const claimed = await withWorkspace(deps.db, workspace.id, async (tx) => {
    const setting = await findAutoanswerChannel(tx, workspace.id, message.parentId);
    if (!setting) return 'off' as const;
    // Threads from before /autoanswer on are old conversations, not new questions.
    if (snowflakeMs(message.threadId) < setting.enabledAt.getTime()) return 'older-than-setting' as const;
    const limited = await channelOverLimit(tx, { workspaceId: workspace.id, channelId: message.parentId, maxPerHour: setting.maxPerHour });
    const id = await claimAutoAnswer(tx, { workspaceId: workspace.id, channelId: message.parentId, threadId: message.threadId, messageId: message.messageId });
    return id ? { id, setting, limited } : ('already-handled' as const);
  });
  if (typeof claimed === 'string') return { handled: false, skipped: claimed };
  const question = questionOf(message);
  const log = deps.logger.child({ workspaceId: workspace.id, threadId: message.threadId, channelId: message.parentId });
  const finish = async (outcome: AutoAnswerOutcome, reason: string | null, queryId: string | null, replyMessageId: string | null): Promise<AutoAnswerResult> => {
    const recorded = await withWorkspace(deps.db, workspace.id, async (tx) => {
      const id = queryId ?? (await recordUnansweredQuery(tx, { workspaceId: workspace.id, question, askedBy: message.authorId, interactionId: message.messageId, errorCode: errorCodeOf(reason, outcome) }));
      await finishAutoAnswer(tx, claimed.id, { outcome, reason, queryId: id, replyMessageId });
      return id;
    });
    log.info({ outcome, reason, queryId: recorded }, 'auto-answer finished');
    return { handled: true, outcome, queryId: recorded };
  };
  // Every way of not answering says why in the thread, with a way to reach staff.
  const say = (line: string) => announce(deps.writer, log, message, { ...notice(line), components: stillNeedHelpRow(claimed.id) });

  if (claimed.limited) {
    return finish('rate_limited', `AUTOANSWER_RATE_LIMITED: the channel had its ${claimed.setting.maxPerHour} auto-answers of the last hour`, null, await say(RATE_LIMITED_LINE));
  }
  if (!question) return finish('failed', 'AUTOANSWER_EMPTY: the post has no text to answer', null, null);
  const answered = await answerInThread(deps, {
    workspaceId: workspace.id,
    message,
    question,
    surface: 'auto',
    whenUncovered: claimed.setting.whenUncovered,
    log,
    label: 'auto-answer',
    say,
    componentsFor: (result) => autoAnswerButtons(claimed.id, result.queryId, result.citations.length > 0),
  });
  return finish(answered.outcome, answered.reason, answered.queryId, answered.replyMessageId);
}

/** A forum post's title is most of its question; a thread's first message is all of it. */
function questionOf(message: ThreadMessage): string {
  const body = message.content.trim();
  const title = message.threadName.trim();
  const text = title && !body.toLowerCase().includes(title.toLowerCase()) ? `${title}\n${body}` : body || title;
  return text.trim().slice(0, MAX_QUESTION);
}
