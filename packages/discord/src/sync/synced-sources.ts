import type { Queryable } from '@brain/db';

export type SyncUnitKind = 'thread' | 'post' | 'pin' | 'day';

/** What a sync remembers of one source it produced. */
export interface SyncedSourceRow extends Record<string, unknown> {
  source_key: string;
  unit: SyncUnitKind;
  discord_id: string;
  artifact_id: string | null;
  fingerprint: string | null;
  forgotten: boolean;
  gone: boolean;
  last_run: string | null;
  /** The artifact's own state: forgotten by someone (or by a sync), or absent (purged). */
  artifact_forgotten: boolean | null;
}

/** Every source a channel's syncs produced, with its artifact's forgotten state. */
export async function loadSyncedSources(tx: Queryable, syncedChannelId: string): Promise<Map<string, SyncedSourceRow>> {
  const rows = await tx.query<SyncedSourceRow>(
    `select s.source_key, s.unit, s.discord_id, s.artifact_id, s.fingerprint, s.forgotten, s.gone, s.last_run,
            (a.forgotten_at is not null) as artifact_forgotten
     from synced_sources s left join artifacts a on a.id = s.artifact_id
     where s.synced_channel_id = $1`,
    [syncedChannelId],
  );
  return new Map(rows.map((r) => [r.source_key, r]));
}

/** Keys of sources forgotten in channels that were removed from /sync since (sync_forgotten_keys). */
export async function forgottenKeys(tx: Queryable, workspaceId: string): Promise<string[]> {
  const rows = await tx.query<{ source_key: string }>('select source_key from sync_forgotten_keys where workspace_id = $1', [workspaceId]);
  return rows.map((r) => r.source_key);
}

/** What a pass knows of a key forgotten before the channel was removed and added again. */
export function forgottenBefore(sourceKey: string): SyncedSourceRow {
  return { source_key: sourceKey, unit: 'thread', discord_id: '', artifact_id: null, fingerprint: null, forgotten: true, gone: false, last_run: null, artifact_forgotten: null };
}

/** What a pass needs to know of a unit's artifact, saved by this sync or by hand before /sync. */
export interface KnownArtifact extends Record<string, unknown> {
  id: string;
  forgotten: boolean;
  failed: boolean;
}

/** The artifact a source key names, if any. */
export async function artifactByKey(tx: Queryable, workspaceId: string, sourceKey: string): Promise<KnownArtifact | undefined> {
  const [row] = await tx.query<KnownArtifact>(
    "select id, forgotten_at is not null as forgotten, status = 'failed' as failed from artifacts where workspace_id = $1 and source_key = $2",
    [workspaceId, sourceKey],
  );
  return row;
}

/** The artifacts of many source keys at once, by key. */
export async function artifactsByKey(tx: Queryable, workspaceId: string, sourceKeys: string[]): Promise<Map<string, KnownArtifact>> {
  const rows = await tx.query<KnownArtifact & { source_key: string }>(
    `select source_key, id, forgotten_at is not null as forgotten, status = 'failed' as failed
     from artifacts where workspace_id = $1 and source_key in (select jsonb_array_elements_text($2::jsonb))`,
    [workspaceId, JSON.stringify(sourceKeys)],
  );
  return new Map(rows.map(({ source_key, ...artifact }) => [source_key, artifact]));
}

export interface RecordUnit {
  workspaceId: string;
  syncedChannelId: string;
  sourceKey: string;
  unit: SyncUnitKind;
  discordId: string;
  day: string | null;
  artifactId: string | null;
  messageIds: string[];
  fingerprint: string | null;
  forgotten: boolean;
  gone: boolean;
  run: string;
}

/** Records a unit as done for this pass (and counts it in the checkpoint, when the checkpoint is this pass's), in the caller's transaction; one statement. */
export async function recordUnit(tx: Queryable, u: RecordUnit): Promise<void> {
  await tx.query(
    `with recorded as (
     insert into synced_sources as s (workspace_id, synced_channel_id, source_key, unit, discord_id, day, artifact_id, message_ids, fingerprint, forgotten, gone, last_run, synced_at)
     values ($1, $2, $3, $4, $5, $6::date, $7, $8::text[], $9, $10, $11, $12, now())
     on conflict (workspace_id, source_key) do update set
       synced_channel_id = excluded.synced_channel_id, unit = excluded.unit, discord_id = excluded.discord_id, day = excluded.day,
       artifact_id = coalesce(excluded.artifact_id, s.artifact_id), message_ids = excluded.message_ids,
       fingerprint = excluded.fingerprint, forgotten = excluded.forgotten, gone = excluded.gone,
       last_run = excluded.last_run, synced_at = now()
     returning 1
   )
   update synced_channels set checkpoint = jsonb_set(checkpoint, '{done}', to_jsonb(coalesce((checkpoint ->> 'done')::int, 0) + 1))
   where id = $2 and exists (select 1 from recorded) and checkpoint ->> 'run' = $12`,
    [u.workspaceId, u.syncedChannelId, u.sourceKey, u.unit, u.discordId, u.day, u.artifactId, u.messageIds, u.fingerprint, u.forgotten, u.gone, u.run],
  );
}
