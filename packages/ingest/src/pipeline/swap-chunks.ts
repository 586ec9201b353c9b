import { actAsService, actAsTenant, toVectorLiteral, type Database } from '@brain/db';
import { AppError } from '@brain/errors';
import { completeJob, holdJob } from '../queue/complete-job.ts';
import type { ChunkPiece } from './ingest-services.ts';

export interface EmbeddedChunk extends ChunkPiece {
  embedding: number[];
}

export interface SwapRequest {
  jobId: string;
  workerId: string;
  workspaceId: string;
  artifactId: string;
  model: string;
  chunks: EmbeddedChunk[];
  artifact: {
    title: string | null;
    contentHash: string;
    etag: string | null;
    lastModified: string | null;
    fetchedAt: boolean;
  };
}

const INSERT_BATCH = 100;

/**
 * Replaces an artifact's passages in ONE transaction, so the old version answers until the new
 * one is complete, and completes the job in the same commit. The job row is locked first and
 * only while this worker still holds its lease: a worker that lost its lease commits nothing.
 * The data itself is written as the tenant, under Row Level Security.
 */
export async function swapChunks(db: Database, request: SwapRequest): Promise<void> {
  await db.transaction(async (tx) => {
    await actAsService(tx);
    if (!(await holdJob(tx, request.jobId, request.workerId))) throw leaseLost(request.jobId);

    await actAsTenant(tx, request.workspaceId);
    const [artifact] = await tx.query<{ forgotten: boolean }>(
      'select forgotten_at is not null as forgotten from artifacts where id = $1 for update',
      [request.artifactId],
    );
    if (!artifact) throw new AppError({ code: 'ARTIFACT_GONE', message: `Artifact ${request.artifactId} was deleted while it was being indexed.` });

    await tx.query('delete from chunks where artifact_id = $1', [request.artifactId]);
    for (let i = 0; i < request.chunks.length; i += INSERT_BATCH) {
      const batch = request.chunks.slice(i, i + INSERT_BATCH);
      await tx.query(
        `insert into chunks (workspace_id, artifact_id, ordinal, heading, content, content_hash, token_count, embedding, embedding_model, is_live, message_spans)
         select $1, $2, u.ordinal, u.heading, u.content, u.content_hash, u.token_count, u.embedding::vector, $3, $4, u.message_spans::jsonb
         from unnest($5::int[], $6::text[], $7::text[], $8::text[], $9::int[], $10::text[], $11::text[])
           as u(ordinal, heading, content, content_hash, token_count, embedding, message_spans)`,
        [
          request.workspaceId,
          request.artifactId,
          request.model,
          !artifact.forgotten,
          batch.map((c) => c.ordinal),
          batch.map((c) => c.heading),
          batch.map((c) => c.content),
          batch.map((c) => c.contentHash),
          batch.map((c) => c.tokenCount),
          batch.map((c) => toVectorLiteral(c.embedding)),
          batch.map((c) => (c.messageSpans ? JSON.stringify(c.messageSpans.map((m) => ({ start: m.start, end: m.end, message_id: m.messageId, url: m.url }))) : null)),
        ],
      );
    }
    await tx.query(
      `update artifacts set status = 'ready', error_code = null, error_message = null,
         chunk_count = $2, content_hash = $3, title = coalesce($4, title), etag = $5, last_modified = $6,
         indexed_at = now(), fetched_at = case when $7 then now() else fetched_at end,
         metadata = metadata - 'last_error'
       where id = $1`,
      [
        request.artifactId,
        request.chunks.length,
        request.artifact.contentHash,
        request.artifact.title,
        request.artifact.etag,
        request.artifact.lastModified,
        request.artifact.fetchedAt,
      ],
    );

    await actAsService(tx);
    if (!(await completeJob(tx, request.jobId, request.workerId))) throw leaseLost(request.jobId);
  });
}

export function leaseLost(jobId: string): AppError {
  return new AppError({
    code: 'LEASE_LOST',
    message: `Job ${jobId} is no longer held by this worker (its lease expired and another worker may be running it).`,
    retryable: false,
  });
}
