import type { Queryable } from '@brain/db';

/**
 * Whether a thread's parent is a channel the server let the brain follow (/autoanswer or /sync):
 * a ✅ or a solved tag saves a thread only there. "Mark solved" is asked for explicitly, so it
 * needs no such channel. Returns the channel's staff role when /autoanswer set one.
 */
export async function solvedOptIn(tx: Queryable, workspaceId: string, parentId: string): Promise<{ optedIn: boolean; staffRoleId: string | null }> {
  const [row] = await tx.query<{ auto: boolean; synced: boolean; staff_role_id: string | null }>(
    `select exists (select 1 from public.autoanswer_channels where workspace_id = $1 and channel_id = $2) as auto,
            exists (select 1 from public.synced_channels where workspace_id = $1 and channel_id = $2) as synced,
            (select staff_role_id from public.autoanswer_channels where workspace_id = $1 and channel_id = $2) as staff_role_id`,
    [workspaceId, parentId],
  );
  return { optedIn: row?.auto === true || row?.synced === true, staffRoleId: row?.staff_role_id ?? null };
}
