import type { Command } from 'commander';
import { migrate } from '@brain/db';
import { startWebServer } from '@brain/web';
import { cliLogger, openConfiguredDatabase, readConfig } from '../context.ts';
import { print } from '../output.ts';
import { onShutdown } from '../shutdown.ts';

export function registerStart(program: Command): void {
  program
    .command('start')
    .description('run the web service and the worker in one process (the embedded default needs no configuration)')
    .option('--port <port>', 'listen on this port instead of PORT', (v) => Number.parseInt(v, 10))
    .action(async (options: { port?: number }) => {
      const config = readConfig();
      const logger = cliLogger(config, 'brain');
      const db = await openConfiguredDatabase(config, 'start');
      try {
        const migrated = await migrate(db);
        if (migrated.applied.length > 0) logger.info({ applied: migrated.applied.length }, 'database migrated');
        const web = await startWebServer({ config, db, logger }, { ...(options.port !== undefined ? { port: options.port } : {}) });
        print.line(`Company Brain is running (${config.mode} mode, database ${db.display}).`);
        print.line(`  health:     ${web.url}/healthz`);
        onShutdown(logger, async () => {
          await web.close();
          await db.close();
        });
      } catch (error) {
        await db.close();
        throw error;
      }
    });
}
