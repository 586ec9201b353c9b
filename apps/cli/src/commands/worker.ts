import type { Command } from 'commander';
import { cliLogger, openConfiguredDatabase, readConfig } from '../context.ts';
import { runWorker } from '../services/run-worker.ts';
import { onShutdown } from '../shutdown.ts';

export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description('run the ingestion worker and its 15-minute sweeper (for a separate worker service)')
    .action(async () => {
      const config = readConfig();
      const logger = cliLogger(config, 'brain-worker', 'server');
      const db = await openConfiguredDatabase(config, 'worker');
      try {
        const worker = await runWorker(config, db, logger);
        onShutdown(logger, async () => {
          await worker.stop();
          await db.close();
        });
      } catch (error) {
        await db.close();
        throw error;
      }
    });
}
