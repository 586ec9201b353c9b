import type { Logger } from '@brain/observability';
import { startWorker } from '@brain/worker';
import { progressBar } from '../progress.ts';
import type { IngestRuntime } from './ingest.ts';

/** An in-process worker that takes only these artifacts' jobs, until none is left. */
export async function indexNow(runtime: IngestRuntime, artifactIds: string[], showProgress: boolean, logger: Logger): Promise<void> {
  const bar = progressBar(showProgress, 'indexing', artifactIds.length);
  const worker = await startWorker(runtime.services, {
    logger,
    artifactIds,
    onJobDone: (_job, outcome) => {
      if (outcome.ok || outcome.final) bar.tick();
    },
  });
  await worker.idle();
  await worker.stop();
  bar.done();
}

