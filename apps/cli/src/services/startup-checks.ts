import { withService, type Database } from '@brain/db';
import { checkEmbeddingModel } from '@brain/embeddings';
import { isAppError } from '@brain/errors';
import type { Logger } from '@brain/observability';

/**
 * Refuses to serve answers from vectors of another model. The one exception is a re-embedding
 * already under way (`brain reembed --queue`): every passage still on the old model has its
 * reembed job queued, and the worker started with this process will finish it.
 */
export async function checkEmbeddingModelAtStartup(db: Database, model: string, logger: Logger): Promise<void> {
  try {
    await checkEmbeddingModel(db, model);
  } catch (error) {
    if (!isAppError(error, 'EMBEDDING_MODEL_MISMATCH')) throw error;
    const [pending] = await withService(db, (tx) =>
      tx.query<{ uncovered: number; covered: number }>(
        `select count(distinct c.artifact_id) filter (where j.id is null)::int as uncovered,
                count(distinct c.artifact_id) filter (where j.id is not null)::int as covered
         from chunks c
         left join jobs j on j.artifact_id = c.artifact_id and j.task = 'reembed' and j.status in ('queued', 'running')
         where c.embedding_model is distinct from $1 and c.embedding is not null`,
        [model],
      ),
    );
    if (!pending || pending.uncovered > 0) throw error;
    logger.warn({ model, sources: pending.covered }, 're-embedding in progress: answers from sources not yet re-embedded are unreliable until it finishes');
  }
}
