import { withService, type Database } from '../index.ts';

/**
 * A workspace row as an install would leave it (slug and name; a Discord server when given),
 * written as service_role like the install path. Returns its id.
 */
export async function createWorkspace(db: Database, slug: string, guildId?: string): Promise<string> {
  const [row] = await withService(db, (tx) =>
    tx.query<{ id: string }>('insert into workspaces (slug, name, guild_id) values ($1, $1, $2) returning id::text', [slug, guildId ?? null]),
  );
  if (!row) throw new Error(`insert into workspaces returned no row for ${slug}`);
  return row.id;
}
