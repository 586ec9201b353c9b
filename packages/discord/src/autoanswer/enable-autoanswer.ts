import { withWorkspace, type Database } from '@brain/db';
import { AUTOANSWER_COLUMNS, DEFAULT_MAX_PER_HOUR, autoanswerChannelOf, type AutoanswerChannel, type WhenUncovered } from './autoanswer-channel.ts';

export interface EnableAutoanswer {
  workspaceId: string;
  guildId: string;
  channelId: string;
  channelName: string | null;
  whenUncovered: WhenUncovered;
  staffRoleId: string | null;
  /** Absent: the channel keeps its allowance (the default for a new one). */
  maxPerHour?: number | null | undefined;
  enabledBy: string;
}

/**
 * /autoanswer on: records (or updates) the channel's settings. Turning it on again keeps the
 * original time, which is when "new" posts start: older threads are never answered.
 */
export async function enableAutoanswer(db: Database, input: EnableAutoanswer): Promise<{ channel: AutoanswerChannel; created: boolean }> {
  const [row] = await withWorkspace(db, input.workspaceId, (tx) =>
    tx.query<Record<string, unknown>>(
      `insert into public.autoanswer_channels (workspace_id, guild_id, channel_id, channel_name, when_uncovered, staff_role_id, enabled_by, max_per_hour)
       values ($1, $2, $3, $4, $5, $6, $7, coalesce($8::int, ${DEFAULT_MAX_PER_HOUR}))
       on conflict (workspace_id, channel_id) do update
         set channel_name = coalesce(excluded.channel_name, public.autoanswer_channels.channel_name),
             when_uncovered = excluded.when_uncovered,
             staff_role_id = excluded.staff_role_id,
             enabled_by = excluded.enabled_by,
             max_per_hour = coalesce($8::int, public.autoanswer_channels.max_per_hour)
       returning ${AUTOANSWER_COLUMNS}, (xmax = 0) as created`,
      [input.workspaceId, input.guildId, input.channelId, input.channelName, input.whenUncovered, input.staffRoleId, input.enabledBy, input.maxPerHour ?? null],
    ),
  );
  if (!row) throw new Error('enableAutoanswer: the upsert returned no row');
  return { channel: autoanswerChannelOf(row), created: row.created === true };
}
