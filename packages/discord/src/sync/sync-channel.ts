import { createHash } from 'node:crypto';
import { EVERYTHING, withWorkspace, type Database, type Queryable } from '@brain/db';
import { coerceError, type AppError } from '@brain/errors';
import { forgetSource, saveSourceIn, type SourceInput } from '@brain/ingest';
import type { DiscordHistory } from '../history/discord-history.ts';
import { SYNCED_CHANNEL_COLUMNS, toSyncedChannel, type SyncCheckpoint, type SyncedChannel, type SyncedChannelRow } from './synced-channel.ts';
import { artifactByKey, artifactsByKey, forgottenBefore, forgottenKeys, loadSyncedSources, recordUnit, type KnownArtifact, type SyncedSourceRow } from './synced-sources.ts';
import type { RefreshableGuildFacts } from '../audience/guild-facts-source.ts';
import { solvedThreadIds } from '../solved/solved-threads.ts';
import { replaceThreadMembers } from './thread-members.ts';
import { dayKey, listDayUnits, listUnits, type Unit } from './channel-units.ts';

/** Errors that are about one thread or pin, not the channel: the pass goes on without it. */
const UNIT_ERRORS = new Set(['DISCORD_MISSING_ACCESS', 'DISCORD_CHANNEL_NOT_FOUND', 'DISCORD_THREAD_TOO_LONG', 'SAVE_TOO_LARGE']);
/** Errors that stop the channel until someone acts, shown as the pause reason. */
const PAUSING_ERRORS = new Set(['DISCORD_MISSING_ACCESS', 'DISCORD_CHANNEL_NOT_FOUND', 'DISCORD_MESSAGE_CONTENT_OFF', 'DISCORD_BOT_TOKEN_INVALID']);
const MAX_SKIPPED_SHOWN = 5;
/** What /sync list shows of a channel, counted again after every pass. */
const COUNTS = `source_count = (select count(*)::int from synced_sources s where s.synced_channel_id = c.id and not s.gone and not s.forgotten and s.artifact_id is not null),
         message_count = (select coalesce(sum(cardinality(s.message_ids)), 0)::int from synced_sources s where s.synced_channel_id = c.id and not s.gone and not s.forgotten and s.artifact_id is not null)`;
/**
 * Units read at once. Each thread is its own rate-limit bucket on Discord, so discord.js REST runs
 * their reads side by side and paces them to the bot's 50 requests a second; one at a time, a
 * pass waits on every round trip and every save in turn. bench:sync measured the choice.
 */
export const SYNC_CONCURRENCY = 8;

export interface SyncPass {
  workspaceId: string;
  syncedChannelId: string;
  /** The job doing this pass: the same id on a requeued attempt, which resumes it. */
  runId: string;
  signal?: AbortSignal | undefined;
  /** Who the saved sources are saved by. */
  savedBy?: string;
  /** Units (threads, posts, days, pins) read and saved at once; SYNC_CONCURRENCY by default. */
  concurrency?: number;
  /** The guild's roles and overwrites, read again by every pass so every answer sees them at once. */
  guildFacts?: Pick<RefreshableGuildFacts, 'refresh'> | undefined;
  /**
   * Only these UTC days (YYYY-MM-DD) of the channel's own messages, and its pins: a pass the
   * Gateway queues when a message there is edited or deleted (queueDaySync). It reads just those
   * days, leaves threads to their own refresh, and is not the channel's pass: its checkpoint and
   * last sync stay as the last full pass left them.
   */
  days?: readonly string[] | undefined;
}

export interface SyncOutcome {
  state: SyncedChannel['state'] | 'removed';
  /** Sources saved (new or changed: the worker indexes them). */
  saved: number;
  unchanged: number;
  /** Sources whose messages are all gone (or a thread deleted, a message unpinned): forgotten. */
  forgotten: number;
  /** Units done by an earlier attempt of this pass. */
  resumed: number;
  skipped: number;
  pauseReason?: string;
}


/**
 * One pass over a synced channel: its threads (a forum's posts, with tags), its pins and its
 * messages outside threads (one source per UTC day), each saved through the same saveSource as
 * "Save thread to brain" when it changed, left alone when not, forgotten when its messages are
 * all gone. Sources someone forgot stay forgotten. Each unit is recorded as done for this pass
 * as soon as it is, so a killed worker's requeued job carries on where it stopped. Missing
 * access or the Message Content intent switched off pause the channel, with the reason.
 */
export async function syncChannel(db: Database, history: DiscordHistory, pass: SyncPass): Promise<SyncOutcome> {
  const outcome: SyncOutcome = { state: 'current', saved: 0, unchanged: 0, forgotten: 0, resumed: 0, skipped: 0 };
  const channel = await loadChannel(db, pass);
  if (!channel) return { ...outcome, state: 'removed' };
  // A failed read is logged there and leaves the stored facts to age out: the pass goes on. A pass
  // over edited days leaves them to the full passes and the answers' own 60 s refresh: edits come
  // in bursts, and each would read the guild again.
  if (!pass.days) await pass.guildFacts?.refresh({ workspaceId: pass.workspaceId, guildId: channel.guildId });
  const signal = pass.signal;
  const savedBy = pass.savedBy ?? `sync:${channel.channelId}`;
  const skipped: SyncCheckpoint['skipped'] = [];

  try {
    const info = await history.channel(channel.channelId, { signal });
    const name = 'name' in info && info.name ? info.name : channel.channelName;
    const marked = await withWorkspace(db, pass.workspaceId, (tx) => solvedThreadIds(tx, pass.workspaceId));
    const units = pass.days
      ? await listDayUnits(history, channel, info, name ?? channel.channelId, pass.days, signal)
      : await listUnits(history, channel, info, name ?? channel.channelId, marked, signal);
    const { known, artifacts } = await withWorkspace(db, pass.workspaceId, async (tx) => {
      if (pass.days) {
        await tx.query('update synced_channels set channel_name = $2 where id = $1', [channel.id, name]);
      } else {
        const checkpoint = channel.checkpoint.run === pass.runId ? channel.checkpoint : { run: pass.runId, done: 0 };
        await tx.query('update synced_channels set channel_name = $2, checkpoint = $3::jsonb where id = $1', [
          channel.id,
          name,
          JSON.stringify({ ...checkpoint, total: units.length }),
        ]);
      }
      const rows = await loadSyncedSources(tx, channel.id);
      // Forgotten while this channel was synced before a /sync remove: still forgotten.
      for (const key of await forgottenKeys(tx, pass.workspaceId)) if (!rows.has(key)) rows.set(key, forgottenBefore(key));
      // Units already saved (by this sync or by hand), so a forgotten one is skipped without reading it.
      return { known: rows, artifacts: await artifactsByKey(tx, pass.workspaceId, units.map((u) => u.sourceKey)) };
    });

    await eachBounded(units, pass.concurrency ?? SYNC_CONCURRENCY, async (unit) => {
      signal?.throwIfAborted();
      const previous = known.get(unit.sourceKey);
      if (previous?.last_run === pass.runId) {
        outcome.resumed += 1;
        return;
      }
      try {
        await syncUnit(db, pass, channel, unit, previous, artifacts.get(unit.sourceKey), savedBy, outcome);
      } catch (error) {
        const appError = coerceError(error);
        if (!UNIT_ERRORS.has(appError.code) || unit.discordId === channel.channelId) throw error;
        outcome.skipped += 1;
        if (skipped.length < MAX_SKIPPED_SHOWN) skipped.push({ unit: unit.label, reason: appError.userMessage });
        await withWorkspace(db, pass.workspaceId, (tx) =>
          recordUnit(tx, { ...unitRecord(pass, channel, unit, previous), run: pass.runId }),
        );
      }
    });

    // What this pass did not meet any more: deleted threads, days whose messages are all gone, unpinned messages.
    // A pass over some days looked only at those days and the pins.
    const seen = new Set(units.map((u) => u.sourceKey));
    const looked = pass.days ? new Set(pass.days.map((day) => dayKey(channel.guildId, channel.channelId, day))) : undefined;
    for (const row of known.values()) {
      if (seen.has(row.source_key) || row.gone || row.forgotten) continue;
      if (looked && !looked.has(row.source_key) && row.unit !== 'pin') continue;
      if (row.artifact_id && row.artifact_forgotten === false) {
        // The sync acts for the channel, not for a reader: whatever the source's audience.
        await forgetSource(db, pass.workspaceId, row.artifact_id, { audience: EVERYTHING });
        outcome.forgotten += 1;
      }
      await withWorkspace(db, pass.workspaceId, async (tx) => {
        if (row.unit === 'thread' || row.unit === 'post') await replaceThreadMembers(tx, pass.workspaceId, row.discord_id, null);
        await tx.query('update synced_sources set gone = true, last_run = $2, synced_at = now() where workspace_id = $1 and source_key = $3', [pass.workspaceId, pass.runId, row.source_key]);
      });
    }
  } catch (error) {
    const appError = coerceError(error);
    if (!PAUSING_ERRORS.has(appError.code)) throw error;
    const reason = pauseReason(appError);
    await withWorkspace(db, pass.workspaceId, (tx) =>
      tx.query(`update synced_channels set state = 'paused', pause_code = $2, pause_reason = $3 where id = $1`, [channel.id, appError.code, reason]),
    );
    return { ...outcome, state: 'paused', pauseReason: reason };
  }

  if (pass.days) {
    await withWorkspace(db, pass.workspaceId, (tx) => tx.query(`update synced_channels c set ${COUNTS} where c.id = $1`, [channel.id]));
    return { ...outcome, state: channel.state };
  }
  await withWorkspace(db, pass.workspaceId, (tx) =>
    tx.query(
      `update synced_channels c set state = 'current', pause_code = null, pause_reason = null, last_synced_at = now(),
         checkpoint = c.checkpoint || jsonb_build_object('skipped', $2::jsonb),
         ${COUNTS}
       where c.id = $1`,
      [channel.id, JSON.stringify(skipped)],
    ),
  );
  return outcome;
}

/** The history reader speaks of "that thread"; a paused sync is about the channel. */
function pauseReason(error: AppError): string {
  switch (error.code) {
    case 'DISCORD_MISSING_ACCESS':
      return 'Discord says the bot is missing access to this channel (403). Give the bot’s role View Channel and Read Message History on it, then run `/sync add` on it again.';
    case 'DISCORD_CHANNEL_NOT_FOUND':
      return 'Discord says this channel no longer exists. Remove it with `/sync remove`.';
    default:
      return [error.userMessage, error.nextStep].filter(Boolean).join(' ');
  }
}

async function loadChannel(db: Database, pass: SyncPass): Promise<SyncedChannel | undefined> {
  const [row] = await withWorkspace(db, pass.workspaceId, (tx) =>
    tx.query<SyncedChannelRow>(`select ${SYNCED_CHANNEL_COLUMNS} from synced_channels where id = $1`, [pass.syncedChannelId]),
  );
  return row ? toSyncedChannel(row) : undefined;
}

/**
 * One unit: read from Discord, then everything it changes (the source, its members, the pass's
 * record of it and the checkpoint) in one transaction. The embedded database runs one transaction
 * at a time, so three small ones a unit, each a few round trips to its thread, made the database
 * the pace of the backfill instead of Discord's rate limit.
 */
async function syncUnit(db: Database, pass: SyncPass, channel: SyncedChannel, unit: Unit, previous: SyncedSourceRow | undefined, hint: KnownArtifact | undefined, savedBy: string, outcome: SyncOutcome): Promise<void> {
  const record = unitRecord(pass, channel, unit, previous);
  const forgottenNow = (existing: KnownArtifact | undefined) => Boolean(existing?.forgotten || (!existing && previous?.forgotten));
  // Forgotten by someone (or purged after that) when the pass began: not even read. A sync never brings it back.
  if (forgottenNow(hint)) {
    const stillForgotten = await withWorkspace(db, pass.workspaceId, async (tx) => {
      const existing = await artifactByKey(tx, pass.workspaceId, unit.sourceKey);
      if (!forgottenNow(existing)) return false;
      await recordUnit(tx, { ...record, artifactId: existing?.id ?? null, forgotten: true });
      return true;
    });
    if (stillForgotten) return;
  }
  const read = await unit.read();
  if (!read) {
    const existing = await withWorkspace(db, pass.workspaceId, (tx) => artifactByKey(tx, pass.workspaceId, unit.sourceKey));
    if (existing) {
      await forgetSource(db, pass.workspaceId, existing.id, { audience: EVERYTHING });
      outcome.forgotten += 1;
    }
    await withWorkspace(db, pass.workspaceId, async (tx) => {
      if (unit.members) await replaceThreadMembers(tx, pass.workspaceId, unit.discordId, null);
      await recordUnit(tx, { ...record, artifactId: existing?.id ?? null, messageIds: [], gone: true });
    });
    return;
  }
  // Read on every pass, whether or not the messages changed: who may be quoted them can change alone.
  const members = unit.members ? await unit.members() : undefined;
  const keepMembers = (tx: Queryable) => (members === undefined ? Promise.resolve() : replaceThreadMembers(tx, pass.workspaceId, unit.discordId, members));
  const fingerprint = fingerprintOf(read.input);
  const verdict = await withWorkspace(db, pass.workspaceId, async (tx): Promise<'forgotten' | 'unchanged' | 'saved'> => {
    // Checked again in the commit that saves: someone may have forgotten it while it was read.
    const existing = await artifactByKey(tx, pass.workspaceId, unit.sourceKey);
    if (forgottenNow(existing)) {
      await recordUnit(tx, { ...record, artifactId: existing?.id ?? null, forgotten: true });
      return 'forgotten';
    }
    // A source whose indexing failed is saved again (which retries it) even when unchanged.
    if (existing && !existing.failed && previous?.fingerprint === fingerprint) {
      await keepMembers(tx);
      await recordUnit(tx, { ...record, artifactId: existing.id, messageIds: read.messageIds, fingerprint });
      return 'unchanged';
    }
    const { artifacts } = await saveSourceIn(tx, { workspaceId: pass.workspaceId, input: read.input, savedBy });
    const main = artifacts.find((a) => a.sourceKey === unit.sourceKey);
    await keepMembers(tx);
    await recordUnit(tx, { ...record, artifactId: main?.artifactId ?? null, messageIds: read.messageIds, fingerprint, forgotten: false, gone: false });
    return 'saved';
  });
  if (verdict === 'unchanged') outcome.unchanged += 1;
  if (verdict === 'saved') outcome.saved += 1;
}

function unitRecord(pass: SyncPass, channel: SyncedChannel, unit: Unit, previous: SyncedSourceRow | undefined) {
  return {
    workspaceId: pass.workspaceId,
    syncedChannelId: channel.id,
    sourceKey: unit.sourceKey,
    unit: unit.kind,
    discordId: unit.discordId,
    day: unit.day,
    artifactId: previous?.artifact_id ?? null,
    messageIds: [] as string[],
    fingerprint: previous?.fingerprint ?? null,
    forgotten: false,
    gone: false,
    run: pass.runId,
  };
}

/** What a source says: unchanged means nothing to save, and nothing to embed. */
function fingerprintOf(input: SourceInput): string {
  // Attachment URLs are signed and expire, so each read brings new ones for the same file.
  const stable = JSON.stringify(input, (key, value: unknown) =>
    key === 'attachments' && Array.isArray(value) ? value.map((a: { id: string; fileName: string; size: number }) => [a.id, a.fileName, a.size]) : value,
  );
  return createHash('sha256').update(stable).digest('hex');
}

/**
 * Runs `work` over `items`, at most `bound` at a time, in order of start. The first failure stops
 * new starts; it is thrown once the ones already running have settled, so no save is left
 * half-recorded behind a pass that has returned.
 */
async function eachBounded<T>(items: readonly T[], bound: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (!failure && next < items.length) {
      const item = items[next++] as T;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(bound, items.length)) }, lane));
  if (failure) throw failure.error;
}
