import type { Command } from 'commander';
import { startWebServer } from '@brain/web';
import { cliLogger, openConfiguredDatabase, readConfig } from '../context.ts';
import { print } from '../output.ts';
import { runWorker, type RunningWorker } from '../services/run-worker.ts';
import { onShutdown } from '../shutdown.ts';

export function registerStart(program: Command): void {
  program
    .command('start')
    .description('run the web service and the worker in one process (the embedded default needs no configuration)')
    .option('--port <port>', 'listen on this port instead of PORT', (v) => Number.parseInt(v, 10))
    .action(async (options: { port?: number }) => {
      const config = readConfig();
      const logger = cliLogger(config, 'brain', 'server');
      const db = await openConfiguredDatabase(config, 'start');
      let worker: RunningWorker | undefined;
      try {
        worker = await runWorker(config, db, logger);
        const web = await startWebServer({ config, db, logger }, { ...(options.port !== undefined ? { port: options.port } : {}) });
        const running = worker;
        print.line(`Company Brain is running (${config.mode} mode, database ${db.display}).`);
        print.line(`  health:     ${web.url}/healthz`);
        onShutdown(logger, async () => {
          // Stop taking requests and jobs first, then let both drain.
          await Promise.all([web.close(), running.stop()]);
          await db.close();
        });
      } catch (error) {
        await worker?.stop(0);
        await db.close();
        throw error;
      }
    });
}
