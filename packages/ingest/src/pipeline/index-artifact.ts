import { createHash } from 'node:crypto';
import { actAsService, withWorkspace } from '@brain/db';
import { AppError } from '@brain/errors';
import { completeJob, holdJob } from '../queue/complete-job.ts';
import type { Job } from '../queue/job.ts';
import type { IngestServices } from './ingest-services.ts';
import type { ChunkPiece } from './ingest-services.ts';
import { loadArtifact, type ArtifactToIndex } from './load-artifact.ts';
import { obtainDocument, type ObtainedDocument } from './obtain-document.ts';
import { parseThreadBody } from '../save/thread-body.ts';
import { leaseLost, swapChunks, type EmbeddedChunk } from './swap-chunks.ts';

export type IndexOutcome =
  | { result: 'indexed'; chunks: number; embedded: number; reused: number }
  | { result: 'unchanged' | 'not-modified' | 'skipped'; chunks: number; embedded: 0; reused: 0 };

/**
 * The slow path of /save: obtain the document, extract its text, chunk it, embed what is new,
 * and swap the passages in. Re-indexing unchanged content embeds nothing: an unchanged document
 * hash stops before chunking, and unchanged passages reuse their vectors by content hash.
 */
export async function indexArtifact(
  services: IngestServices,
  job: Job,
  workerId: string,
  signal: AbortSignal,
): Promise<IndexOutcome> {
  if (!job.artifactId) throw new AppError({ code: 'JOB_INVALID', message: `Job ${job.id} names no artifact.` });
  const artifactId = job.artifactId;
  const artifact = await withWorkspace(services.db, job.workspaceId, async (tx) => {
    const found = await loadArtifact(tx, artifactId);
    if (found && !found.forgotten && (found.status === 'queued' || found.status === 'failed')) {
      await tx.query("update artifacts set status = 'indexing', error_code = null, error_message = null where id = $1", [artifactId]);
    }
    return found;
  });
  if (!artifact || artifact.forgotten) {
    await finishWithoutChanges(services, job, workerId, null);
    return { result: 'skipped', chunks: 0, embedded: 0, reused: 0 };
  }

  const alreadyIndexed = artifact.indexedChunks > 0 && artifact.indexedModel === services.embedder.model;
  const obtained = await obtainDocument(services, artifact, { conditional: alreadyIndexed, signal });
  if (obtained.notModified) {
    await finishWithoutChanges(services, job, workerId, { etag: obtained.etag, lastModified: obtained.lastModified });
    return { result: 'not-modified', chunks: artifact.indexedChunks, embedded: 0, reused: 0 };
  }

  const prepared = artifact.kind === 'discord_thread' ? prepareThread(services, artifact, obtained.bytes) : await prepareDocument(services, artifact, obtained);
  const { contentHash } = prepared;

  if (alreadyIndexed && contentHash === artifact.contentHash) {
    await finishWithoutChanges(services, job, workerId, { etag: obtained.etag, lastModified: obtained.lastModified });
    return { result: 'unchanged', chunks: artifact.indexedChunks, embedded: 0, reused: 0 };
  }

  const pieces = await prepared.pieces();
  if (pieces.length === 0) {
    throw new AppError({
      code: 'EXTRACT_EMPTY',
      message: `No text found in ${artifact.fileName ?? artifact.url ?? artifact.id}.`,
      userMessage: 'I found no text in that source.',
      nextStep: 'If it is a scanned PDF or an image, save a text version instead.',
    });
  }

  const known = await reusableEmbeddings(services, job.workspaceId, artifactId, services.embedder.model);
  const toEmbed = pieces.filter((p) => !known.has(p.contentHash));
  const fresh = toEmbed.length > 0 ? await services.embedder.embed(toEmbed.map((p) => services.textForEmbedding(p)), { signal }) : [];
  const freshByHash = new Map(toEmbed.map((p, i) => [p.contentHash, fresh[i] as number[]]));
  const chunks: EmbeddedChunk[] = pieces.map((p) => ({
    ...p,
    embedding: (known.get(p.contentHash) ?? freshByHash.get(p.contentHash)) as number[],
  }));

  await swapChunks(services.db, {
    jobId: job.id,
    workerId,
    workspaceId: job.workspaceId,
    artifactId,
    model: services.embedder.model,
    chunks,
    artifact: {
      // A file with no title of its own (markdown, text) is cited by its name, not as "untitled".
      title: artifact.title ? null : prepared.ownTitle,
      contentHash,
      etag: obtained.etag,
      lastModified: obtained.lastModified,
      fetchedAt: artifact.kind === 'url',
    },
  });
  return { result: 'indexed', chunks: chunks.length, embedded: toEmbed.length, reused: pieces.length - toEmbed.length };
}

interface Prepared {
  title: string;
  /** A title found in the document for a source saved without one. */
  ownTitle: string | null;
  contentHash: string;
  /** Deferred: an unchanged document stops before chunking. */
  pieces(): ChunkPiece[] | Promise<ChunkPiece[]>;
}

async function prepareDocument(services: IngestServices, artifact: ArtifactToIndex, obtained: Extract<ObtainedDocument, { notModified: false }>): Promise<Prepared> {
  const extracted = await services.extract({
    bytes: obtained.bytes,
    mimeType: obtained.mimeType,
    charset: obtained.charset,
    url: obtained.url ?? artifact.url ?? undefined,
    fileName: artifact.fileName ?? undefined,
  });
  const title = artifact.title ?? extracted.title ?? artifact.fileName ?? artifact.url ?? 'Untitled';
  return {
    title,
    ownTitle: extracted.title ?? artifact.fileName ?? null,
    contentHash: createHash('sha256').update(`${services.chunkingVersion}\n${title}\n${extracted.text}`).digest('hex'),
    pieces: () => services.chunk({ title, text: extracted.text }),
  };
}

/**
 * A saved thread is already structured text: no extraction, and passages along message
 * boundaries with each message's link. Its stored messages are the document its hash covers.
 */
function prepareThread(services: IngestServices, artifact: ArtifactToIndex, bytes: Buffer): Prepared {
  if (!services.chunkConversation) {
    throw new AppError({
      code: 'THREAD_CHUNKING_UNAVAILABLE',
      message: 'This worker was built without conversation chunking (IngestServices.chunkConversation), so it cannot index a saved thread.',
      userMessage: 'This server’s worker cannot index saved threads yet.',
      nextStep: 'Ask the operator to update the brain and restart its worker; then save the thread again.',
    });
  }
  const text = bytes.toString('utf8');
  const body = parseThreadBody(text);
  const title = artifact.title ?? 'Untitled thread';
  return {
    title,
    ownTitle: null,
    contentHash: createHash('sha256').update(`${services.conversationChunkingVersion ?? 'thread'}\n${title}\n${text}`).digest('hex'),
    pieces: () => services.chunkConversation?.({ title, messages: body.messages }) ?? [],
  };
}

/** Vectors already computed for this artifact with the current model, by passage hash. */
async function reusableEmbeddings(services: IngestServices, workspaceId: string, artifactId: string, model: string): Promise<Map<string, number[]>> {
  const rows = await withWorkspace(services.db, workspaceId, (tx) =>
    tx.query<{ content_hash: string; embedding: string }>(
      'select distinct on (content_hash) content_hash, embedding::text as embedding from chunks where artifact_id = $1 and embedding_model = $2',
      [artifactId, model],
    ),
  );
  return new Map(rows.map((r) => [r.content_hash, JSON.parse(r.embedding) as number[]]));
}

async function finishWithoutChanges(
  services: IngestServices,
  job: Job,
  workerId: string,
  validators: { etag: string | null; lastModified: string | null } | null,
): Promise<void> {
  await services.db.transaction(async (tx) => {
    await actAsService(tx);
    if (!(await holdJob(tx, job.id, workerId))) throw leaseLost(job.id);
    if (validators && job.artifactId) {
      await tx.query(
        `update artifacts set status = 'ready', fetched_at = now(), indexed_at = now(),
           etag = coalesce($2, etag), last_modified = coalesce($3, last_modified)
         where id = $1`,
        [job.artifactId, validators.etag, validators.lastModified],
      );
    }
    await completeJob(tx, job.id, workerId);
  });
}
