// One sync pass in a process of its own, so bench:sync can kill -9 it mid-backfill and resume the
// pass (same run id) in another. Arguments: a JSON object (see SyncChildArgs). Prints one line of
// JSON with the outcome and how long the pass took.
import { openDatabase } from '@brain/db';
import { createDiscordHistory, syncChannel } from '@brain/discord';
import { dbTarget, type SyncChildArgs } from './bench-target.ts';

const args = JSON.parse(process.argv[2] ?? '{}') as SyncChildArgs;
const db = await openDatabase(dbTarget(args.db), { command: 'bench:sync child' });
try {
  const history = createDiscordHistory({ apiBase: args.apiBase, botToken: args.botToken });
  const started = performance.now();
  const outcome = await syncChannel(db, history, {
    workspaceId: args.workspaceId,
    syncedChannelId: args.syncedChannelId,
    runId: args.runId,
    ...(args.concurrency ? { concurrency: args.concurrency } : {}),
  });
  process.stdout.write(`${JSON.stringify({ outcome, ms: performance.now() - started })}\n`);
} finally {
  await db.close();
}
