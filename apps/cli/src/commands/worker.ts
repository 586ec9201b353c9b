import type { Command } from 'commander';
import { checkServingConfig } from '@brain/config';
import { databaseSnapshot } from '@brain/ingest';
import { createMetrics } from '@brain/observability';
import { startMetricsServer, type MetricsServer } from '@brain/worker';
import { compose } from '../compose.ts';
import { withStoredEmbeddingModel } from '../services/stored-embedding-model.ts';
import { cliLogger, openConfiguredDatabase, readConfig } from '../context.ts';
import { startGateway } from '../gateway-wiring.ts';
import { print } from '../output.ts';
import { runWorker } from '../services/run-worker.ts';
import { onShutdown } from '../shutdown.ts';

export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description('run the ingestion worker and its 15-minute sweeper (for a separate worker service)')
    .action(async () => {
      const config = readConfig();
      if (config.worker.metricsPort !== undefined) checkServingConfig(config, 'worker metrics');
      const logger = cliLogger(config, 'brain-worker', 'server');
      const db = await openConfiguredDatabase(config, 'worker');
      const metrics = createMetrics();
      const app = compose(await withStoredEmbeddingModel(config, db, logger), db, logger);
      let metricsServer: MetricsServer | undefined;
      try {
        // Listening before the first job is claimed, so every job this process runs is counted in a scrape.
        if (config.worker.metricsPort !== undefined) {
          metricsServer = await startMetricsServer({
            // HOST, like the web: this machine only in embedded mode, where no token is required.
            host: config.host,
            port: config.worker.metricsPort,
            metrics,
            snapshot: () => databaseSnapshot(db),
            healthy: async () => db.query('select 1').then(() => true, () => false),
            token: config.metricsToken,
            logger,
          });
        }
        const worker = await runWorker(app, metrics.jobs);
        const gateway = startGateway({ config, db, logger, ask: app.answering(), checkEntitlement: app.entitlementCheck() });
        if (metricsServer) print.line(`Worker metrics: ${metricsServer.url}/metrics (health: ${metricsServer.url}/healthz)`);
        onShutdown(logger, async () => {
          // Scrapes keep working while jobs drain; the port closes before the database does.
          await Promise.all([worker.stop(), gateway?.stop()]);
          await metricsServer?.close();
          await app.close();
          await db.close();
        });
      } catch (error) {
        await metricsServer?.close();
        await app.close();
        await db.close();
        throw error;
      }
    });
}
