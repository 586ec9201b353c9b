import type { Command } from 'commander';
import { sweep } from '@brain/worker';
import { openConfiguredDatabase, readConfig } from '../context.ts';
import { guardDriverWriteAfterClose } from '../driver-guard.ts';
import { print } from '../output.ts';

export function registerSweep(program: Command): void {
  program
    .command('sweep')
    .description('run the sweeper once: requeue jobs of dead workers, refresh stale URLs, purge old forgotten sources')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const config = readConfig();
      const db = await openConfiguredDatabase(config, 'sweep');
      // As in `brain migrate`: the failed query's own rejection says what went wrong, so the driver's stray TypeError is dropped.
      const unguard = guardDriverWriteAfterClose(() => {});
      try {
        const result = await sweep(db, { refreshAfterMs: config.worker.refreshAfterMs, syncEveryMs: config.worker.syncEveryMs });
        if (options.json) print.json(result);
        else print.line(`Requeued ${result.requeued} job(s) of stopped workers, failed ${result.failed} poison job(s), queued ${result.refreshesQueued} refresh(es), ${result.syncsQueued} channel sync(s) and ${result.everyoneFlagsQueued} everyone-flags rewrite(s), purged ${result.purged} forgotten source(s).`);
      } finally {
        await db.close();
        unguard();
      }
    });
}
