import type { Queryable } from '@brain/db';

/** Kinds of channel that hold messages a source can be saved from: text, voice (its chat), announcement, stage, forum, media. */
const MESSAGE_CHANNEL_TYPES = [0, 2, 5, 13, 15, 16];

export interface GuildChannel {
  id: string;
  name: string;
}

/**
 * The guild's channels the bot can view (Discord lists no other), from the facts the last sync
 * pass or answer stored: what an admin may narrow a source to, sources or not. Empty until the
 * facts were read once (no bot token, or nothing asked or synced yet). Run inside withWorkspace.
 */
export async function guildChannels(tx: Queryable): Promise<GuildChannel[]> {
  const rows = await tx.query<{ id: string; name: string }>(
    `select c ->> 'id' as id, c ->> 'name' as name
     from public.guild_facts f, jsonb_array_elements(f.channels) c
     where (c ->> 'type')::integer = any($1::integer[]) and coalesce(c ->> 'name', '') <> ''
     order by c ->> 'name', c ->> 'id'`,
    [MESSAGE_CHANNEL_TYPES],
  );
  return rows;
}
