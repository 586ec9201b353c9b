import { withWorkspace, type Database, type Queryable } from '@brain/db';
import { enforceSaveRateLimits, type SaveRateLimits } from './save-rate-limits.ts';
import type { SourceInput } from './source-input.ts';
import { audienceOfOrigin, originOfInput, type SourceOrigin } from './source-origin.ts';
import { planArtifacts, type PlannedArtifact, type SkippedAttachment } from './validate-source.ts';

export interface SavedArtifact {
  artifactId: string;
  kind: PlannedArtifact['kind'];
  sourceKey: string;
  title: string | null;
  url: string | null;
  status: 'queued' | 'indexing' | 'ready' | 'failed';
  /** False when this source was saved before: it is refreshed, never duplicated. */
  created: boolean;
  /** True when it had been forgotten and saving it again brought it back. */
  restored: boolean;
}

export interface SaveResult {
  artifacts: SavedArtifact[];
  skipped: SkippedAttachment[];
}

export interface SaveRequest {
  workspaceId: string;
  input: SourceInput;
  /** Who saved it: a Discord user id, "cli", "mcp:<token name>". */
  savedBy: string;
  /** The channel or thread it was saved in; absent: workspace-wide (CLI, MCP, dashboard without a channel). */
  origin?: SourceOrigin | undefined;
}

export interface SaveOptions {
  /**
   * Refuses a URL the fetcher would refuse (a private address, a blocked port) before anything is
   * written, so the person saving hears it at once instead of from a failed job later.
   */
  checkUrl?: (url: string) => Promise<void>;
  /** Per-member and per-workspace limits (Discord, MCP); the operator's CLI passes none. */
  rateLimits?: SaveRateLimits | undefined;
}

/**
 * The one save function behind every surface. In one transaction, as the workspace's tenant:
 * each artifact row (upserted on its source key), its stored body when it cannot be fetched
 * again, and its ingestion job. The worker does the slow part; a job queued here wakes it.
 */
export async function saveSource(db: Database, request: SaveRequest, options: SaveOptions = {}): Promise<SaveResult> {
  const { planned, skipped } = planArtifacts(request.input);
  // After validation (a malformed save costs nothing), before anything is written.
  if (options.rateLimits) await enforceSaveRateLimits(options.rateLimits, request.workspaceId, request.savedBy);
  if (options.checkUrl) {
    for (const artifact of planned) if (artifact.kind === 'url' && artifact.url) await options.checkUrl(artifact.url);
  }
  const artifacts = await withWorkspace(db, request.workspaceId, (tx) => writeArtifacts(tx, request, planned));
  return { artifacts, skipped };
}

/**
 * saveSource's writes in the caller's transaction, which already acts as the workspace's tenant
 * (withWorkspace): a sync pass records what it saved in the same commit, one transaction a unit
 * instead of three. No rate limits or URL checks: only a sync, acting for the channel, uses it.
 */
export async function saveSourceIn(tx: Queryable, request: SaveRequest): Promise<SaveResult> {
  const { planned, skipped } = planArtifacts(request.input);
  return { artifacts: await writeArtifacts(tx, request, planned), skipped };
}

async function writeArtifacts(tx: Queryable, request: SaveRequest, planned: PlannedArtifact[]): Promise<SavedArtifact[]> {
  const withOrigin = { ...request, origin: request.origin ?? originOfInput(request.input) };
  const saved: SavedArtifact[] = [];
  for (const artifact of planned) saved.push(await upsertArtifact(tx, withOrigin, artifact));
  return saved;
}

async function upsertArtifact(tx: Queryable, request: SaveRequest, a: PlannedArtifact): Promise<SavedArtifact> {
  const [row] = await tx.query<{
    id: string;
    created: boolean;
    restored: boolean;
    status: SavedArtifact['status'];
    title: string | null;
  }>(
    `with previous as (
       select forgotten_at from artifacts where workspace_id = $1 and source_key = $3
     )
     insert into artifacts as a (workspace_id, kind, source_key, url, title, file_name, mime_type, author, saved_by, metadata,
                                 origin_guild_id, origin_channel_id, origin_parent_id, origin_private_thread, origin_message_ids, audience)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13, $14, $15::text[], $16)
     on conflict (workspace_id, source_key) do update set
       -- Saved again from elsewhere: the latest save says where it lives now, unless an admin
       -- placed it (audience_changes), whose choice stands.
       origin_guild_id = excluded.origin_guild_id,
       origin_channel_id = excluded.origin_channel_id,
       origin_parent_id = excluded.origin_parent_id,
       origin_private_thread = excluded.origin_private_thread,
       origin_message_ids = excluded.origin_message_ids,
       audience = case when exists (select 1 from audience_changes ch where ch.artifact_id = a.id) then a.audience
                       else excluded.audience end,
       -- A title given where fewer people read it does not follow the source to a wider audience.
       title = case when excluded.audience = a.audience then coalesce(excluded.title, a.title) else excluded.title end,
       url = coalesce(excluded.url, a.url),
       saved_by = excluded.saved_by,
       metadata = a.metadata || excluded.metadata,
       forgotten_at = null,
       status = case when a.status = 'failed' then 'queued' else a.status end,
       error_code = case when a.status = 'failed' then null else a.error_code end,
       error_message = case when a.status = 'failed' then null else a.error_message end
     returning a.id, (xmax = 0) as created,
       coalesce((select forgotten_at is not null from previous), false) as restored,
       a.status, a.title`,
    [
      request.workspaceId,
      a.kind,
      a.sourceKey,
      a.url,
      a.title,
      a.fileName,
      a.mimeType,
      a.author,
      request.savedBy,
      JSON.stringify(a.metadata),
      request.origin?.guildId ?? null,
      request.origin?.channelId ?? null,
      request.origin?.thread ? request.origin.parentId : null,
      request.origin?.privateThread ?? false,
      [...(request.origin?.messageIds ?? [])],
      audienceOfOrigin(request.origin),
    ],
  );
  const artifact = row as NonNullable<typeof row>;

  if (artifact.restored) {
    // Forgotten passages answer again at once; the job below refreshes them.
    await tx.query('update chunks set is_live = true where artifact_id = $1 and embedding is not null', [artifact.id]);
  }

  if (a.body) {
    const bytes = 'bytes' in a.body ? a.body.bytes : null;
    const text = 'text' in a.body ? a.body.text : null;
    await tx.query(
      `insert into artifact_sources (artifact_id, workspace_id, mime_type, body, body_text, byte_size)
       values ($1, $2, $3, $4, $5, $6)
       on conflict (artifact_id) do update set mime_type = excluded.mime_type, body = excluded.body,
         body_text = excluded.body_text, byte_size = excluded.byte_size`,
      [artifact.id, request.workspaceId, a.mimeType, bytes, text, bytes ? bytes.length : Buffer.byteLength(text ?? '')],
    );
  }

  // At most one pending ingestion per artifact: saving twice in a row queues the work once.
  await tx.query(
    `insert into jobs (workspace_id, artifact_id, task, payload)
     values ($1, $2, 'ingest', $3::jsonb)
     on conflict (artifact_id, task) where status in ('queued', 'running') do nothing`,
    [request.workspaceId, artifact.id, JSON.stringify({ reason: artifact.created ? 'save' : 'resave' })],
  );

  return {
    artifactId: artifact.id,
    kind: a.kind,
    sourceKey: a.sourceKey,
    title: artifact.title,
    url: a.url,
    status: artifact.status,
    created: artifact.created,
    restored: artifact.restored,
  };
}
