import type { Queryable } from '../database.ts';

export interface WorkspaceRow extends Record<string, unknown> {
  id: string;
  slug: string;
  name: string;
  guild_id: string | null;
  plan_status: 'none' | 'trialing' | 'active' | 'past_due' | 'canceled';
  claim_email: string | null;
  match_count: number;
  min_similarity: number;
}

const columns = 'id, slug, name, guild_id, plan_status, claim_email, match_count, min_similarity';

/**
 * The workspace with this slug, created on first use (the CLI's local workspace). Atomic: two
 * processes asking at once get the same row. Run it as service_role (withService).
 */
export async function ensureWorkspace(tx: Queryable, slug: string, name = slug): Promise<WorkspaceRow> {
  const inserted = await tx.query<WorkspaceRow>(
    `insert into public.workspaces (slug, name) values ($1, $2)
     on conflict (slug) do nothing
     returning ${columns}`,
    [slug, name],
  );
  if (inserted[0]) return inserted[0];
  const existing = await tx.query<WorkspaceRow>(`select ${columns} from public.workspaces where slug = $1`, [slug]);
  if (!existing[0]) throw new Error(`workspace ${slug} vanished between insert and select`);
  return existing[0];
}

export async function findWorkspaceBySlug(tx: Queryable, slug: string): Promise<WorkspaceRow | undefined> {
  const rows = await tx.query<WorkspaceRow>(`select ${columns} from public.workspaces where slug = $1`, [slug]);
  return rows[0];
}
