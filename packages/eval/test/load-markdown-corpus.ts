import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chunkDocument, textForEmbedding } from '@brain/chunking';
import { toVectorLiteral, withWorkspace, type Database } from '@brain/db';
import type { Embedder } from '@brain/embeddings';

/**
 * Loads a folder of markdown files as one workspace's ready sources, chunked and embedded the way
 * ingestion does it (chunkDocument, textForEmbedding, the given embedder). Each artifact's file
 * name is its path relative to the folder ("Reference/Hooks.md"), which is what an eval set's
 * expected_sources name. Ids are derived from the path and the passage's position, not random:
 * match_artifacts breaks ties (equal full-text ranks are common) by id, and random ids made the
 * same corpus score one question differently from run to run. Test-only: `brain eval --corpus`
 * loads through the ingestion pipeline.
 */
export async function loadMarkdownCorpus(db: Database, workspaceId: string, dir: string, embedder: Embedder): Promise<number> {
  let passages = 0;
  for (const file of markdownFiles(dir)) {
    const title = path.basename(file, '.md');
    const chunks = chunkDocument({ title, text: readFileSync(path.join(dir, file), 'utf8') });
    const vectors = await embedder.embed(chunks.map((c) => textForEmbedding(c)));
    await withWorkspace(db, workspaceId, async (tx) => {
      const id = stableUuid(file);
      await tx.query(
        `insert into artifacts (id, workspace_id, kind, source_key, title, file_name, status, chunk_count)
         values ($1, $2, 'file', $3, $4, $5, 'ready', $6)`,
        [id, workspaceId, `file:${file}`, title, file, chunks.length],
      );
      for (const [i, c] of chunks.entries()) {
        await tx.query(
          `insert into chunks (id, workspace_id, artifact_id, ordinal, heading, content, content_hash, token_count, embedding, embedding_model, is_live)
           values ($10, $1, $2, $3, $4, $5, $6, $7, $8::vector, $9, true)`,
          [workspaceId, id, c.ordinal, c.heading, c.content, c.contentHash, c.tokenCount, toVectorLiteral(vectors[i] ?? []), embedder.model, stableUuid(`${file}#${c.ordinal}`)],
        );
      }
    });
    passages += chunks.length;
  }
  return passages;
}

function markdownFiles(dir: string, prefix = ''): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return markdownFiles(dir, rel);
      return entry.name.endsWith('.md') ? [rel] : [];
    });
}

/** A version-4-shaped UUID from a name, the same on every run. */
export function stableUuid(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
