import { withWorkspace } from '@brain/db';
import type { Job } from '../queue/job.ts';
import type { IngestServices } from './ingest-services.ts';
import { swapChunks } from './swap-chunks.ts';

/**
 * Re-embeds an artifact's existing passages with the configured model (after EMBEDDING_MODEL
 * changed), without fetching or re-chunking: the passages stay, the vectors change, in one swap.
 */
export async function reembedArtifact(services: IngestServices, job: Job, workerId: string, signal: AbortSignal): Promise<{ chunks: number }> {
  const artifactId = job.artifactId as string;
  const rows = await withWorkspace(services.db, job.workspaceId, (tx) =>
    tx.query<{
      ordinal: number;
      heading: string | null;
      content: string;
      content_hash: string;
      token_count: number;
      content_hash_doc: string | null;
      message_spans: { start: number; end: number; message_id: string; url: string }[] | null;
    }>(
      `select c.ordinal, c.heading, c.content, c.content_hash, c.token_count, a.content_hash as content_hash_doc, c.message_spans
       from chunks c join artifacts a on a.id = c.artifact_id
       where c.artifact_id = $1 order by c.ordinal`,
      [artifactId],
    ),
  );
  const pieces = rows.map((r) => ({
    ordinal: r.ordinal,
    heading: r.heading,
    content: r.content,
    contentHash: r.content_hash,
    tokenCount: r.token_count,
    // The passages stay as they are, so do the messages they point to.
    messageSpans: r.message_spans?.map((m) => ({ start: m.start, end: m.end, messageId: m.message_id, url: m.url })) ?? null,
  }));
  const vectors = pieces.length > 0 ? await services.embedder.embed(pieces.map((p) => services.textForEmbedding(p)), { signal }) : [];
  await swapChunks(services.db, {
    jobId: job.id,
    workerId,
    workspaceId: job.workspaceId,
    artifactId,
    model: services.embedder.model,
    chunks: pieces.map((p, i) => ({ ...p, embedding: vectors[i] as number[] })),
    artifact: { title: null, contentHash: rows[0]?.content_hash_doc ?? '', etag: null, lastModified: null, fetchedAt: false },
  });
  return { chunks: pieces.length };
}
