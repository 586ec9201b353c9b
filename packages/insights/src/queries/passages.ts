import { isUuid, type Queryable } from '@brain/db';

export interface PassageInfo {
  chunkId: string;
  heading: string | null;
  /** The first 400 characters. */
  excerpt: string;
  isLive: boolean;
}

/**
 * The passages a question retrieved, as they are now. A source re-indexed since replaced its
 * passages, so an id may be gone: the caller says so rather than showing something else.
 */
export async function passagesById(tx: Queryable, workspaceId: string, chunkIds: readonly string[]): Promise<Map<string, PassageInfo>> {
  const ids = [...new Set(chunkIds)].filter(isUuid);
  if (ids.length === 0) return new Map();
  const rows = await tx.query<{ id: string; heading: string | null; excerpt: string; is_live: boolean }>(
    `select c.id::text, c.heading, left(c.content, 400) as excerpt, c.is_live
     from chunks c where c.workspace_id = $1 and c.id = any($2::uuid[])`,
    [workspaceId, `{${ids.join(',')}}`],
  );
  return new Map(rows.map((r) => [r.id, { chunkId: r.id, heading: r.heading, excerpt: r.excerpt, isLive: r.is_live }]));
}
