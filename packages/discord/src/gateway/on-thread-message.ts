import { answerNewThread, type AutoAnswerResult } from '../autoanswer/answer-new-thread.ts';
import type { ThreadMessage } from '../autoanswer/thread-message.ts';
import { answerFollowUp, type FollowUpDeps, type FollowUpResult } from '../followup/answer-follow-up.ts';

/**
 * A message in a thread: the thread's first auto-answer when it has none yet, else, when the
 * message speaks to the bot, a follow-up. The first claim decides, so a post is never both.
 */
export async function onThreadMessage(deps: FollowUpDeps, message: ThreadMessage): Promise<AutoAnswerResult | FollowUpResult> {
  const first = await answerNewThread(deps, message);
  if (first.handled || first.skipped !== 'already-handled') return first;
  return answerFollowUp(deps, message);
}
