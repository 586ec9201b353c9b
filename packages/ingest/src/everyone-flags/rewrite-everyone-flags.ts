import { withService, type Database, type Queryable } from '@brain/db';
import { AppError } from '@brain/errors';

/** The lock class of the everyone flags ('evfl' in ASCII), as chunk_takes_everyone_flag takes it (20261202160000). */
const LOCK_CLASS = 1702258284;

/**
 * Rows per transaction. Each flipped passage moves from one HNSW index to the other (measured at
 * about 3 ms on PostgreSQL at bench:retrieval's largest workspace when it was re-inserted into
 * both): a few hundred keep one transaction, and the embedded database's only connection, well
 * under a second.
 */
export const EVERYONE_FLAGS_BATCH = 200;

export interface RewriteEveryoneFlagsOptions {
  batchSize?: number;
  /** Rewrite-then-check rounds before giving up for a retry (facts or passages kept changing under it). */
  maxRounds?: number;
  signal?: AbortSignal;
  /** After each batch's commit, with the rows it rewrote: progress for logs and tests. */
  onBatch?: (rewritten: number) => Promise<void> | void;
  /** Runs in the transaction that settles the flags (or finds them current): a job completes itself there. */
  onSettled?: (tx: Queryable) => Promise<unknown>;
}

export interface EveryoneFlagsOutcome {
  /** Passages whose flag was rewritten. */
  rewritten: number;
  batches: number;
  rounds: number;
  /** True when this run marked the flags current; false when they already were, or there are no facts. */
  settled: boolean;
}

// What a passage's flag must be under the workspace's stored facts (chunk_takes_everyone_flag's rule).
const expected = (c: string) =>
  `(${c}.audience = 'workspace' or (${c}.audience like 'channel:%' and ${c}.audience = any(coalesce(
     (select g.everyone_audiences from public.guild_facts g where g.workspace_id = $1::uuid), '{}'))))`;

/**
 * Makes every passage's readable_by_everyone agree with the workspace's stored everyone set, a
 * batch per transaction (only passages whose flag changes are written), then marks the flags
 * current in guild_facts.everyone_flags_follow, but only after checking every passage under the
 * exclusive lock that passage writers share: a writer that read older facts cannot commit a stale
 * flag after the check. When the check fails (facts changed, or a writer committed old facts'
 * flags meanwhile), it goes again. Until it settles, match_artifacts answers 'everyone' by keys.
 */
export async function rewriteEveryoneFlags(db: Database, workspaceId: string, options: RewriteEveryoneFlagsOptions = {}): Promise<EveryoneFlagsOutcome> {
  const batchSize = options.batchSize ?? EVERYONE_FLAGS_BATCH;
  const maxRounds = options.maxRounds ?? 5;
  const outcome: EveryoneFlagsOutcome = { rewritten: 0, batches: 0, rounds: 0, settled: false };
  while (outcome.rounds < maxRounds) {
    outcome.rounds++;
    for (;;) {
      options.signal?.throwIfAborted();
      // The trigger recomputes the flag from the facts it reads; negating it here only makes the
      // update touch the column that fires it.
      const rows = await withService(db, (tx) =>
        tx.query(
          // Chosen once (a CTE): as an IN subquery the planner may rescan it per row, and each
          // rescan picks other rows, so the LIMIT would not bound the batch.
          `with stale as materialized (
             select s.id from public.chunks s
              where s.workspace_id = $1::uuid and s.readable_by_everyone is distinct from ${expected('s')}
              limit $2
              for update of s skip locked)
           update public.chunks c set readable_by_everyone = not c.readable_by_everyone
             from stale where c.id = stale.id and c.workspace_id = $1::uuid
           returning c.id`,
          [workspaceId, batchSize],
        ),
      );
      if (rows.length > 0) outcome.batches++;
      outcome.rewritten += rows.length;
      await options.onBatch?.(rows.length);
      if (rows.length < batchSize) break;
    }
    options.signal?.throwIfAborted();
    const state = await withService(db, async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1, hashtext($2::uuid::text))', [LOCK_CLASS, workspaceId]);
      // A new statement, so a new snapshot: it sees every writer that held the shared lock.
      const marked = await tx.query(
        `update public.guild_facts g set everyone_flags_follow = g.everyone_audiences
          where g.workspace_id = $1::uuid and not brain.everyone_flags_current(g.everyone_flags_follow, g.everyone_audiences)
            and not exists (select 1 from public.chunks c where c.workspace_id = $1::uuid and c.readable_by_everyone is distinct from ${expected('c')})
          returning 1`,
        [workspaceId],
      );
      const [facts] = marked.length > 0 ? [] : await tx.query<{ current: boolean }>(
        'select brain.everyone_flags_current(everyone_flags_follow, everyone_audiences) as current from public.guild_facts where workspace_id = $1::uuid',
        [workspaceId],
      );
      const done = marked.length > 0 || !facts || facts.current;
      if (done) await options.onSettled?.(tx);
      return marked.length > 0 ? 'settled' : done ? 'current' : 'lagging';
    });
    if (state !== 'lagging') return { ...outcome, settled: state === 'settled' };
  }
  throw new AppError({
    code: 'EVERYONE_FLAGS_UNSETTLED',
    message: `The everyone flags of workspace ${workspaceId} did not settle in ${maxRounds} rounds: its facts or passages kept changing.`,
    userMessage: 'Answers in this server use the slower search path until a background job catches up.',
    nextStep: 'Nothing to do: the job is retried. If it keeps failing, check what rewrites the guild facts so often.',
    retryable: true,
  });
}
