import { withWorkspace } from '@brain/db';
import type { ArtifactToIndex } from './load-artifact.ts';
import type { IngestServices } from './ingest-services.ts';

export type ObtainedDocument =
  | { notModified: true; etag: string | null; lastModified: string | null }
  | {
      notModified: false;
      bytes: Buffer;
      mimeType: string;
      charset: string | undefined;
      url: string | undefined;
      etag: string | null;
      lastModified: string | null;
    };

/**
 * The bytes to index: fetched for a URL (conditionally when refreshing something already indexed),
 * fetched once and kept for a Discord attachment (its CDN link expires), or the stored body.
 */
export async function obtainDocument(
  services: IngestServices,
  artifact: ArtifactToIndex,
  options: { conditional: boolean; signal: AbortSignal },
): Promise<ObtainedDocument> {
  if (artifact.kind === 'url' && artifact.url) {
    const fetched = await services.fetchUrl(artifact.url, {
      ifNoneMatch: options.conditional ? (artifact.etag ?? undefined) : undefined,
      ifModifiedSince: options.conditional ? (artifact.lastModified ?? undefined) : undefined,
      signal: options.signal,
    });
    if (fetched.notModified) return { notModified: true, etag: fetched.etag ?? artifact.etag, lastModified: fetched.lastModified ?? artifact.lastModified };
    return {
      notModified: false,
      bytes: fetched.body,
      mimeType: fetched.contentType,
      charset: fetched.charset,
      url: fetched.url,
      etag: fetched.etag ?? null,
      lastModified: fetched.lastModified ?? null,
    };
  }

  const downloadUrl = typeof artifact.metadata.download_url === 'string' ? artifact.metadata.download_url : undefined;
  if (!artifact.body && !artifact.bodyText && downloadUrl) {
    const fetched = await services.fetchUrl(downloadUrl, { signal: options.signal });
    const mimeType = artifact.mimeType ?? fetched.contentType;
    await withWorkspace(services.db, artifact.workspaceId, (tx) =>
      tx.query(
        `insert into artifact_sources (artifact_id, workspace_id, mime_type, body, byte_size)
         values ($1, $2, $3, $4, $5) on conflict (artifact_id) do nothing`,
        [artifact.id, artifact.workspaceId, mimeType, fetched.body, fetched.body.length],
      ),
    );
    return { notModified: false, bytes: fetched.body, mimeType, charset: fetched.charset, url: undefined, etag: null, lastModified: null };
  }

  const bytes = artifact.body ?? Buffer.from(artifact.bodyText ?? '', 'utf8');
  return {
    notModified: false,
    bytes,
    mimeType: artifact.mimeType ?? 'text/plain',
    charset: artifact.bodyText !== null ? 'utf-8' : undefined,
    url: undefined,
    etag: null,
    lastModified: null,
  };
}
