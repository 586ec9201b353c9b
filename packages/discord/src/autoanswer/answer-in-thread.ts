import type { DiscordAPIError } from '@discordjs/rest';
import { coerceError } from '@brain/errors';
import type { Logger } from '@brain/observability';
import { resolveAskAudience } from '../audience/resolve-ask-audience.ts';
import type { AskOutcome } from '../interactions/types.ts';
import { renderAnswer } from '../render/answer-message.ts';
import type { OutgoingMessage } from '../rest/outgoing-message.ts';
import type { AutoAnswerDeps } from './answer-new-thread.ts';
import { forbiddenReason } from './forbidden-reason.ts';
import { FAILED_LINE, NOT_ENTITLED_LINE, UNCOVERED_LINE } from './messages.ts';
import { quietly, react } from './thread-courtesy.ts';
import type { ThreadMessage } from './thread-message.ts';

export interface ThreadAnswerInput {
  workspaceId: string;
  /** The message that asked: replies go under it, and the reaction on it. */
  message: ThreadMessage;
  question: string;
  surface: 'auto' | 'follow_up';
  whenUncovered: 'reaction' | 'line';
  log: Logger;
  /** For the log lines: "auto-answer", "follow-up". */
  label: string;
  /** A short public line in the thread, with the thread's way to reach staff. */
  say: (line: string) => Promise<string | null>;
  /** The buttons under the answer's last part, given the ones renderAnswer put there. */
  componentsFor: (result: AskOutcome, rendered: OutgoingMessage['components']) => OutgoingMessage['components'];
  /** The answer's time budget when the caller's work before it counts too (default deps.timeoutMs from now). */
  signal?: AbortSignal | undefined;
}

export interface ThreadAnswerEnd {
  outcome: 'answered' | 'uncovered' | 'not_entitled' | 'forbidden' | 'failed';
  reason: string | null;
  queryId: string | null;
  replyMessageId: string | null;
}

/**
 * One answer posted in a thread, as the auto-answer and a follow-up both give it: the billing
 * check, the thread's audience (its parent's), the /ask pipeline, and then the cited reply, the
 * channel's reaction or short line when nothing covers it, or a short line saying it failed. A
 * 403 while posting ends as `forbidden` with the log line as its only visible trace.
 */
export async function answerInThread(deps: AutoAnswerDeps, input: ThreadAnswerInput): Promise<ThreadAnswerEnd> {
  const { message, log } = input;
  const end = (outcome: ThreadAnswerEnd['outcome'], reason: string | null, queryId: string | null, replyMessageId: string | null): ThreadAnswerEnd => ({ outcome, reason, queryId, replyMessageId });
  const entitled = await deps.checkEntitlement(input.workspaceId, 'ask');
  if (!entitled.allowed) return end('not_entitled', entitled.code ?? entitled.message, null, await input.say(NOT_ENTITLED_LINE));

  const signal = input.signal ?? AbortSignal.timeout(deps.timeoutMs ?? 60_000);
  let queryId: string | null = null;
  try {
    const { filter } = await resolveAskAudience(deps.db, deps.guildFacts, {
      workspaceId: input.workspaceId,
      guildId: message.guildId,
      channel: { id: message.threadId, type: message.threadType, parentId: message.parentId },
    });
    const result = await deps.ask({ workspaceId: input.workspaceId, question: input.question, audience: filter, surface: input.surface, askedBy: message.authorId, interactionId: message.messageId, signal });
    queryId = result.queryId;
    if (!result.grounded) {
      const reply = input.whenUncovered === 'reaction' ? await quietly(log, () => react(deps.writer, message)) : await input.say(UNCOVERED_LINE);
      return end('uncovered', result.answer, queryId, reply);
    }
    const parts = renderAnswer(input.question, result);
    const last = parts.at(-1) as OutgoingMessage;
    last.components = input.componentsFor(result, last.components);
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
      log.warn({ code: 'AUTOANSWER_FORBIDDEN', discordCode: (caught as Partial<DiscordAPIError>).code }, `${input.label}: ${refused}`);
      return end('forbidden', `AUTOANSWER_FORBIDDEN: ${refused}`, queryId, first);
    }
    return end('answered', null, queryId, first);
  } catch (caught) {
    const error = coerceError(caught);
    log.warn({ err: error, code: error.code }, `${input.label} failed`);
    const details = error.details as { queryId?: string } | undefined;
    return end('failed', error.code, queryId ?? details?.queryId ?? null, await input.say(FAILED_LINE));
  }
}
