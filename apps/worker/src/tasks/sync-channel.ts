import { withService } from '@brain/db';
import { AppError } from '@brain/errors';
import { completeJob } from '@brain/ingest';
import type { Task } from './task.ts';

/**
 * One pass over a /sync channel. Every effect of a pass is idempotent and checkpointed as it
 * goes (a unit saved twice is the same source, refreshed), so the job is completed after them
 * rather than with them: a worker killed before this line leaves a job that resumes the pass.
 */
export const syncChannelTask: Task = async (services, job, workerId, signal) => {
  if (!services.syncDiscordChannel) {
    throw new AppError({
      code: 'SYNC_NEEDS_BOT_TOKEN',
      message: 'A sync_channel job reached a worker without DISCORD_BOT_TOKEN.',
      userMessage: 'Keeping channels in the brain needs the bot’s own token, and this worker has none.',
      nextStep: 'Set DISCORD_BOT_TOKEN for the worker and restart it.',
      retryable: false,
    });
  }
  const result = await services.syncDiscordChannel(job, signal);
  await withService(services.db, (tx) => completeJob(tx, job.id, workerId));
  return result;
};
