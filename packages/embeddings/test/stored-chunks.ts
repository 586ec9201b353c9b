import { randomUUID } from 'node:crypto';
import { toVectorLiteral, withService, type Database } from '@brain/db';
import { createLocalEmbedder } from '../src/index.ts';

const [vector] = await createLocalEmbedder().embed(['a passage']);

/** `count` passages recorded as embedded by `model` (null: not embedded yet), in a new workspace. */
export async function addChunks(db: Database, model: string | null, count: number): Promise<void> {
  await withService(db, async (tx) => {
    const slug = `ws-${randomUUID().slice(0, 8)}`;
    const [workspace] = await tx.query<{ id: string }>('insert into workspaces (slug, name) values ($1, $1) returning id', [slug]);
    const [artifact] = await tx.query<{ id: string }>(
      `insert into artifacts (workspace_id, kind, source_key, title, status) values ($1, 'text', $2, 'A source', 'ready') returning id`,
      [workspace?.id, `text:${slug}`],
    );
    for (let i = 0; i < count; i++) {
      await tx.query(
        `insert into chunks (workspace_id, artifact_id, ordinal, content, content_hash, embedding, embedding_model, is_live)
         values ($1, $2, $3::int, 'text', md5($3::int::text), $4::vector, $5, $6)`,
        [workspace?.id, artifact?.id, i, model ? toVectorLiteral(vector as number[]) : null, model, model !== null],
      );
    }
  });
}
