import type { Queryable } from '@brain/db';
import type { MessageSpan } from '../citations/message-links.ts';

/** The message spans of conversation passages, by chunk id. Run as the workspace's tenant. */
export async function loadMessageSpans(tx: Queryable, chunkIds: readonly string[]): Promise<Map<string, MessageSpan[]>> {
  if (chunkIds.length === 0) return new Map();
  const rows = await tx.query<{ id: string; message_spans: MessageSpan[] }>(
    'select id, message_spans from chunks where id = any($1::uuid[]) and message_spans is not null',
    [chunkIds],
  );
  return new Map(rows.map((r) => [r.id, r.message_spans]));
}
