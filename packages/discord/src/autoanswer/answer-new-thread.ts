import type { DiscordAPIError } from '@discordjs/rest';
import { withWorkspace, type Database } from '@brain/db';
import { coerceError } from '@brain/errors';
import type { Logger } from '@brain/observability';
import type { GuildFactsSource } from '../audience/guild-facts-source.ts';
import { resolveAskAudience } from '../audience/resolve-ask-audience.ts';
import type { AskFunction, EntitlementCheck } from '../interactions/types.ts';
import { findWorkspaceByGuild } from '../queries/find-workspace-by-guild.ts';
import { renderAnswer } from '../render/answer-message.ts';
import { notice } from '../render/notice.ts';
import type { OutgoingMessage } from '../rest/outgoing-message.ts';
import { autoAnswerButtons, stillNeedHelpRow } from './auto-answer-buttons.ts';
import { channelOverLimit } from './channel-rate-limit.ts';
import { claimAutoAnswer } from './claim-auto-answer.ts';
import { findAutoanswerChannel } from './find-autoanswer-channel.ts';
import { finishAutoAnswer, type AutoAnswerOutcome } from './finish-auto-answer.ts';
import { forbiddenReason } from './forbidden-reason.ts';
import { errorCodeOf, recordUnansweredQuery } from './record-unanswered-query.ts';
import { FAILED_LINE, NOT_ENTITLED_LINE, RATE_LIMITED_LINE, UNCOVERED_LINE } from './messages.ts';
import { announce, quietly, react } from './thread-courtesy.ts';
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
  const workspace = deps.workspaceOf ? await deps.workspaceOf(message.guildId) : await findWorkspaceByGuild(deps.db, message.guildId);
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
  const entitled = await deps.checkEntitlement(workspace.id, 'ask');
  if (!entitled.allowed) return finish('not_entitled', entitled.code ?? entitled.message, null, await say(NOT_ENTITLED_LINE));

  const signal = AbortSignal.timeout(deps.timeoutMs ?? 60_000);
  let queryId: string | null = null;
  try {
    const { filter } = await resolveAskAudience(deps.db, deps.guildFacts, {
      workspaceId: workspace.id,
      guildId: message.guildId,
      channel: { id: message.threadId, type: message.threadType, parentId: message.parentId },
    });
    const result = await deps.ask({
      workspaceId: workspace.id,
      question,
      audience: filter,
      surface: 'auto',
      askedBy: message.authorId,
      interactionId: message.messageId,
      signal,
    });
    queryId = result.queryId;
    if (!result.grounded) {
      const reply =
        claimed.setting.whenUncovered === 'reaction' ? await quietly(log, () => react(deps.writer, message)) : await say(UNCOVERED_LINE);
      return await finish('uncovered', result.answer, queryId, reply);
    }
    const parts = renderAnswer(question, result);
    const last = parts.at(-1) as OutgoingMessage;
    last.components = autoAnswerButtons(claimed.id, result.queryId, result.citations.length > 0);
    let first: string | null = null;
    try {
      for (const [i, part] of parts.entries()) {
        const posted = await deps.writer.post(message.threadId, part, i === 0 ? message.messageId : undefined);
        first ??= posted.id;
      }
    } catch (caught) {
      const refused = forbiddenReason(caught);
      if (!refused) throw caught;
      // Nowhere to say it in public: the log line is the visible end, with what to grant.
      log.warn({ code: 'AUTOANSWER_FORBIDDEN', discordCode: (caught as Partial<DiscordAPIError>).code }, `auto-answer: ${refused}`);
      return await finish('forbidden', `AUTOANSWER_FORBIDDEN: ${refused}`, queryId, first);
    }
    return await finish('answered', null, queryId, first);
  } catch (caught) {
    const error = coerceError(caught);
    log.warn({ err: error, code: error.code }, 'auto-answer failed');
    const details = error.details as { queryId?: string } | undefined;
    return finish('failed', error.code, queryId ?? details?.queryId ?? null, await say(FAILED_LINE));
  }
}

/** A forum post's title is most of its question; a thread's first message is all of it. */
function questionOf(message: ThreadMessage): string {
  const body = message.content.trim();
  const title = message.threadName.trim();
  const text = title && !body.toLowerCase().includes(title.toLowerCase()) ? `${title}\n${body}` : body || title;
  return text.trim().slice(0, MAX_QUESTION);
}
