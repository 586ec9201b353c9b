import { withService, type Database } from '@brain/db';

/**
 * The workspace a Discord server installed, if any. Service role: which workspace a guild maps
 * to is decided before there is a workspace to act as.
 */
export async function findWorkspaceByGuild(db: Database, guildId: string): Promise<{ id: string; claimed: boolean } | undefined> {
  const [row] = await withService(db, (tx) =>
    tx.query<{ id: string; claimed: boolean }>('select id, claim_email is not null as claimed from public.workspaces where guild_id = $1', [guildId]),
  );
  return row;
}

/** Gateway handlers' way to a guild's workspace: theirs when given (the playground's pretend server maps to the local one), else the installed one. */
export async function workspaceOfGuild(
  deps: { db: Database; workspaceOf?: ((guildId: string) => Promise<{ id: string } | undefined>) | undefined },
  guildId: string,
): Promise<{ id: string } | undefined> {
  return deps.workspaceOf ? deps.workspaceOf(guildId) : findWorkspaceByGuild(deps.db, guildId);
}
