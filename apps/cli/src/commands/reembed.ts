import type { Command } from 'commander';
import { enqueueReembed } from '@brain/ingest';
import { startWorker } from '@brain/worker';
import { compose } from '../compose.ts';
import { cliLogger, openConfiguredDatabase, readConfig } from '../context.ts';
import { print } from '../output.ts';
import { progressBar } from '../progress.ts';

export function registerReembed(program: Command): void {
  program
    .command('reembed')
    .description('re-embed every passage stored with another model than EMBEDDING_MODEL')
    .option('--queue', 'only queue the work for the running workers (brain start / brain worker) and return')
    .action(async (options: { queue?: boolean }) => {
      const config = readConfig();
      const logger = cliLogger(config, 'brain-reembed');
      const db = await openConfiguredDatabase(config, 'reembed');
      const app = compose(config, db, logger);
      const runtime = app.ingest();
      try {
        const model = runtime.services.embedder.model;
        const queued = await enqueueReembed(db, model);
        print.line(`Queued ${queued} source(s) for re-embedding with ${model}.`);
        if (options.queue || queued === 0) return;
        const bar = progressBar(true, 're-embedding', queued);
        let failed = 0;
        const worker = await startWorker(runtime.services, {
          logger,
          concurrency: config.worker.concurrency,
          jobsPerWorkspace: config.worker.jobsPerWorkspace,
          onJobDone: (job, outcome) => {
            if (job.task !== 'reembed') return;
            if (!outcome.ok && outcome.final) failed++;
            if (outcome.ok || outcome.final) bar.tick();
          },
        });
        await worker.idle();
        await worker.stop();
        bar.done();
        print.line(failed === 0 ? 'Every passage now uses ' + model + '.' : `${failed} source(s) failed to re-embed; \`brain sources --status failed\` lists them.`);
        if (failed > 0) process.exitCode = 1;
      } finally {
        await app.close();
        await db.close();
      }
    });
}
