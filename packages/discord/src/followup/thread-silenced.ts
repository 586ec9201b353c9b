import type { Queryable } from '@brain/db';

/**
 * Whether "Still need help?" silenced the bot in this thread (the staff took over): then no
 * follow-up is answered there.
 */
export async function threadSilenced(tx: Queryable, workspaceId: string, threadId: string): Promise<boolean> {
  // Until the silenced marker lands (h20a's migration), no thread is silenced.
  void tx;
  void workspaceId;
  void threadId;
  return false;
}
