import { everyoneFlagsTask } from './everyone-flags.ts';
import { ingestTask } from './ingest.ts';
import { reembedTask } from './reembed.ts';
import { syncChannelTask } from './sync-channel.ts';
import type { Task } from './task.ts';

export type { Task } from './task.ts';

/** Every task the worker runs, by the name stored in jobs.task. */
export const tasks: Record<string, Task> = {
  everyone_flags: everyoneFlagsTask,
  ingest: ingestTask,
  reembed: reembedTask,
  sync_channel: syncChannelTask,
  // The same pass over only the days the Gateway saw edited (payload.days).
  sync_channel_days: syncChannelTask,
};
