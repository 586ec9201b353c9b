import { randomUUID } from 'node:crypto';
import { sqlState, toVectorLiteral, type Queryable } from '../src/index.ts';
import { unitVector } from './fixtures.ts';

/**
 * The two-sided tenant-isolation matrix: every actor × every tenant table × select, insert,
 * update and delete, plus match_artifacts. Every cell runs as brain_tenant inside a savepoint
 * that is rolled back, so cells cannot affect each other, and the whole matrix can run inside a
 * transaction that has deliberately weakened a policy (to prove the matrix notices).
 */

export type Op = 'select' | 'insert' | 'update' | 'delete';

interface TableSpec {
  /** What brain_tenant is granted; anything else must fail with 42501. */
  grants: Op[];
  /** Inserts one row for the workspace in $1 and returns its id. $2 is that workspace's artifact. */
  insert: string;
  /** A column brain_tenant may update (set to itself). */
  updatable: string;
  /** The primary key column. */
  key: string;
  /** How a row names its workspace. */
  workspaceColumn: string | null;
}

const vector = toVectorLiteral(unitVector(5));

export const TABLES: Record<string, TableSpec> = {
  workspaces: {
    grants: ['select', 'update'],
    insert: `insert into workspaces (id, slug) values ($1, 'm-' || substr(md5(random()::text), 1, 12)) returning id`,
    updatable: 'name',
    key: 'id',
    workspaceColumn: 'id',
  },
  artifacts: {
    grants: ['select', 'insert', 'update', 'delete'],
    insert: `insert into artifacts (workspace_id, kind, source_key, title) values ($1, 'text', 'm-' || gen_random_uuid(), 'matrix') returning id`,
    updatable: 'title',
    key: 'id',
    workspaceColumn: 'workspace_id',
  },
  chunks: {
    grants: ['select', 'insert', 'update', 'delete'],
    insert: `insert into chunks (workspace_id, artifact_id, ordinal, content, content_hash, embedding, embedding_model, is_live)
             values ($1, $2, 0, 'matrix passage about tenancy', 'h', '${vector}', 'test-model', true) returning id`,
    updatable: 'content',
    key: 'id',
    workspaceColumn: 'workspace_id',
  },
  artifact_sources: {
    grants: ['select', 'insert', 'update', 'delete'],
    insert: `insert into artifact_sources (artifact_id, workspace_id, mime_type, body_text, byte_size)
             values ($2, $1, 'text/plain', 'matrix text', 11)
             on conflict (artifact_id) do update set body_text = excluded.body_text returning artifact_id as id`,
    updatable: 'mime_type',
    key: 'artifact_id',
    workspaceColumn: 'workspace_id',
  },
  audience_changes: {
    grants: ['select', 'insert'],
    insert: `insert into audience_changes (workspace_id, artifact_id, changed_by, from_audience, to_audience)
             values ($1, $2, 'discord:1', 'unknown', 'workspace') returning id`,
    updatable: 'changed_by',
    key: 'id',
    workspaceColumn: 'workspace_id',
  },
  jobs: {
    grants: ['select', 'insert', 'update'],
    insert: `insert into jobs (workspace_id, task) values ($1, 'matrix_probe') returning id`,
    updatable: 'status',
    key: 'id',
    workspaceColumn: 'workspace_id',
  },
  job_claim_turns: {
    grants: ['select'],
    insert: `insert into job_claim_turns (workspace_id, last_claimed_at) values ($1, now()) returning workspace_id as id`,
    updatable: 'last_claimed_at',
    key: 'workspace_id',
    workspaceColumn: 'workspace_id',
  },
  queries: {
    grants: ['select', 'insert', 'update'],
    insert: `insert into queries (workspace_id, question, grounded, answerer) values ($1, 'matrix?', false, 'none') returning id`,
    updatable: 'feedback',
    key: 'id',
    workspaceColumn: 'workspace_id',
  },
  query_day_stats: {
    // Written by the queries trigger as the writer of the row; a tenant only ever touches its own.
    grants: ['select', 'insert', 'update'],
    // Today's row, which the seeded queries row has already started: the insert meets it.
    insert: `insert into query_day_stats (workspace_id, day) values ($1, (now() at time zone 'UTC')::date)
             on conflict (workspace_id, day) do update set questions = query_day_stats.questions returning workspace_id::text || ':' || day as id`,
    updatable: 'questions',
    key: "(workspace_id::text || ':' || day)",
    workspaceColumn: 'workspace_id',
  },
  query_source_day_stats: {
    grants: ['select', 'insert', 'update'],
    insert: `insert into query_source_day_stats (workspace_id, day, artifact_id) values ($1, (now() at time zone 'UTC')::date, $2)
             on conflict (workspace_id, day, artifact_id) do update set cited_in = query_source_day_stats.cited_in returning workspace_id::text || ':' || artifact_id as id`,
    updatable: 'cited_in',
    key: "(workspace_id::text || ':' || artifact_id)",
    workspaceColumn: 'workspace_id',
  },
  interactions_seen: {
    grants: [],
    insert: `insert into interactions_seen (interaction_id) values ((floor(random() * 1e15))::bigint::text) returning interaction_id as id`,
    updatable: 'received_at',
    key: 'interaction_id',
    workspaceColumn: null,
  },
  auth_tokens: {
    grants: [],
    insert: `insert into auth_tokens (workspace_id, purpose, email, token_hash, expires_at)
             values ($1, 'claim', 'owner@example.com', encode(sha256(gen_random_uuid()::text::bytea), 'hex'), now() + interval '10 minutes') returning id`,
    updatable: 'used_at',
    key: 'id',
    workspaceColumn: 'workspace_id',
  },
  dashboard_sessions: {
    grants: [],
    insert: `insert into dashboard_sessions (token_hash, workspace_id, email, expires_at)
             values (encode(sha256(gen_random_uuid()::text::bytea), 'hex'), $1, 'owner@example.com', now() + interval '1 day') returning token_hash as id`,
    updatable: 'last_seen_at',
    key: 'token_hash',
    workspaceColumn: 'workspace_id',
  },
  mcp_tokens: {
    // Column grants: no SELECT of token_hash, UPDATE of revoked_at only.
    grants: ['select', 'insert', 'update'],
    insert: `insert into mcp_tokens (workspace_id, name, token_hash, created_by)
             values ($1, 'm-' || gen_random_uuid(), encode(sha256(gen_random_uuid()::text::bytea), 'hex'), 'owner@example.com') returning id`,
    updatable: 'revoked_at',
    key: 'id',
    workspaceColumn: 'workspace_id',
  },
  synced_channels: {
    grants: ['select', 'insert', 'update', 'delete'],
    insert: `insert into synced_channels (workspace_id, guild_id, channel_id, kind, added_by)
             values ($1, '1', (100000 + floor(random() * 1e9))::bigint::text, 'text', 'matrix') returning id`,
    updatable: 'channel_name',
    key: 'id',
    workspaceColumn: 'workspace_id',
  },
  synced_sources: {
    grants: ['select', 'insert', 'update', 'delete'],
    // The channel seeded just above (synced_channels comes first in this table).
    insert: `insert into synced_sources (workspace_id, synced_channel_id, source_key, unit, discord_id)
             values ($1, (select id from synced_channels where workspace_id = $1 order by created_at limit 1), 'm-' || gen_random_uuid(), 'thread', '1') returning id`,
    updatable: 'fingerprint',
    key: 'id',
    workspaceColumn: 'workspace_id',
  },
  sync_forgotten_keys: {
    grants: ['select', 'insert', 'update', 'delete'],
    insert: `insert into sync_forgotten_keys (workspace_id, source_key) values ($1, 'm-' || gen_random_uuid()) returning workspace_id::text || ':' || source_key as id`,
    updatable: 'forgotten_at',
    key: "(workspace_id::text || ':' || source_key)",
    workspaceColumn: 'workspace_id',
  },
  thread_members: {
    grants: ['select', 'insert', 'update', 'delete'],
    insert: `insert into thread_members (workspace_id, thread_id, user_id) values ($1, '1', (100000 + floor(random() * 1e9))::bigint::text)
             returning workspace_id::text || ':' || thread_id || ':' || user_id as id`,
    updatable: 'synced_at',
    key: "(workspace_id::text || ':' || thread_id || ':' || user_id)",
    workspaceColumn: 'workspace_id',
  },
  guild_facts: {
    grants: ['select', 'insert', 'update', 'delete'],
    insert: `insert into guild_facts (workspace_id, guild_id, owner_id, roles, channels, fetched_at)
             values ($1, '1', '2', '[]', '[]', now())
             -- One row per workspace, and the matrix seeds one before it inserts its own.
             on conflict (workspace_id) do update set fetched_at = excluded.fetched_at returning workspace_id::text as id`,
    updatable: 'fetched_at',
    key: 'workspace_id::text',
    workspaceColumn: 'workspace_id',
  },
  autoanswer_channels: {
    grants: ['select', 'insert', 'update', 'delete'],
    insert: `insert into autoanswer_channels (workspace_id, guild_id, channel_id, enabled_by)
             values ($1, '1', (100000 + floor(random() * 1e9))::bigint::text, 'matrix') returning id`,
    updatable: 'channel_name',
    key: 'id',
    workspaceColumn: 'workspace_id',
  },
  auto_answers: {
    grants: ['select', 'insert', 'update', 'delete'],
    insert: `insert into auto_answers (workspace_id, channel_id, thread_id, message_id)
             values ($1, '1', (100000 + floor(random() * 1e9))::bigint::text, '2') returning id`,
    updatable: 'reason',
    key: 'id',
    workspaceColumn: 'workspace_id',
  },
  auto_answer_votes: {
    grants: ['select', 'insert', 'update', 'delete'],
    // The workspace's latest auto-answer (auto_answers comes first in this table).
    insert: `insert into auto_answer_votes (auto_answer_id, workspace_id, user_id, vote)
             values ((select id from auto_answers where workspace_id = $1 order by created_at desc limit 1), $1, (100000 + floor(random() * 1e9))::bigint::text, 'up')
             returning auto_answer_id::text || ':' || user_id as id`,
    updatable: 'voted_at',
    key: "(auto_answer_id::text || ':' || user_id)",
    workspaceColumn: 'workspace_id',
  },
  follow_ups: {
    grants: ['select', 'insert', 'update', 'delete'],
    insert: `insert into follow_ups (workspace_id, channel_id, thread_id, message_id, asked_by, original)
             values ($1, '1', '2', (100000 + floor(random() * 1e9))::bigint::text, '3', 'and the default?') returning id`,
    updatable: 'reason',
    key: 'id',
    workspaceColumn: 'workspace_id',
  },
  solved_threads: {
    grants: ['select', 'insert', 'update', 'delete'],
    insert: `insert into solved_threads (workspace_id, thread_id, how, marked_by) values ($1, (100000 + floor(random() * 1e9))::bigint::text, 'reaction', 'matrix')
             returning workspace_id::text || ':' || thread_id as id`,
    updatable: 'marked_by',
    key: "(workspace_id::text || ':' || thread_id)",
    workspaceColumn: 'workspace_id',
  },
  gateway_leases: {
    grants: [],
    insert: `insert into gateway_leases (name, holder, expires_at) values ('m-' || md5(random()::text), 'matrix', now() + interval '1 minute') returning name as id`,
    updatable: 'holder',
    key: 'name',
    workspaceColumn: null,
  },
  usage_counters: {
    grants: ['select'],
    insert: `insert into usage_counters (workspace_id, kind, used) values ($1, 'ask', 1) returning workspace_id::text || ':' || kind as id`,
    updatable: 'used',
    key: "(workspace_id::text || ':' || kind)",
    workspaceColumn: 'workspace_id',
  },
  rate_limit_counters: {
    grants: [],
    insert: `insert into rate_limit_counters (bucket, window_start, hits) values ('m-' || md5(random()::text), now(), 1) returning bucket as id`,
    updatable: 'hits',
    key: 'bucket',
    workspaceColumn: null,
  },
  stripe_events_seen: {
    grants: [],
    insert: `insert into stripe_events_seen (event_id, type) values ('evt_' || md5(random()::text), 'test') returning event_id as id`,
    updatable: 'type',
    key: 'event_id',
    workspaceColumn: null,
  },
};

export interface Seed {
  workspaceId: string;
  artifactId: string;
  rows: Record<string, string[]>;
}

/** Seeds one row per table for a workspace, as the owner (RLS does not apply to a superuser). */
export async function seedWorkspace(tx: Queryable, slug: string): Promise<Seed> {
  const workspaceId = randomUUID();
  await tx.query('insert into workspaces (id, slug) values ($1, $2)', [workspaceId, slug]);
  const [artifact] = await tx.query<{ id: string }>(TABLES.artifacts?.insert as string, [workspaceId]);
  const artifactId = (artifact as { id: string }).id;
  const rows: Record<string, string[]> = { workspaces: [workspaceId], artifacts: [artifactId] };
  for (const [table, spec] of Object.entries(TABLES)) {
    if (table === 'workspaces' || table === 'artifacts' || spec.workspaceColumn === null) continue;
    await tx.query<{ id: string }>(spec.insert, spec.insert.includes('$2') ? [workspaceId, artifactId] : [workspaceId]);
  }
  // What the workspace holds, read back: a seeded row's triggers may add rows of their own (new
  // guild facts queue an everyone_flags job), and they are the workspace's rows all the same.
  for (const [table, spec] of Object.entries(TABLES)) {
    if (table === 'workspaces' || spec.workspaceColumn === null) continue;
    const held = await tx.query<{ id: string }>(`select ${spec.key}::text as id from ${table} where ${spec.workspaceColumn} = $1`, [workspaceId]);
    rows[table] = held.map((r) => r.id).sort();
  }
  return { workspaceId, artifactId, rows };
}

export type Actor =
  | { name: string; kind: 'tenant'; seed: Seed }
  | { name: string; kind: 'setting'; value: string | null; failsWith?: string };

type Outcome = { rows: string[] } | { error: string };

async function cell(tx: Queryable, actor: Actor, statement: string, params: unknown[]): Promise<Outcome> {
  await tx.exec('savepoint matrix_cell');
  try {
    await tx.exec('set local role brain_tenant');
    const value = actor.kind === 'tenant' ? actor.seed.workspaceId : actor.value;
    if (value !== null) await tx.query("select set_config('app.workspace_id', $1, true)", [value]);
    // Pass only the parameters the statement uses: the server refuses extra ones.
    const used = Math.max(0, ...[...statement.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
    const rows = await tx.query<{ id: string }>(statement, params.slice(0, used));
    return { rows: rows.map((r) => String(r.id)).sort() };
  } catch (error) {
    return { error: sqlState(error) ?? (error as Error).message };
  } finally {
    await tx.exec('rollback to savepoint matrix_cell');
  }
}

/**
 * Runs every cell and returns the violations, each a sentence naming actor, table and operation.
 * An empty list means every forbidden cell returned nothing or failed, and every allowed cell
 * returned exactly the expected rows.
 */
export async function runMatrix(tx: Queryable, seeds: { a: Seed; b: Seed }, actors: Actor[]): Promise<string[]> {
  const violations: string[] = [];
  const expectRows = (label: string, got: Outcome, want: string[]) => {
    if ('error' in got) violations.push(`${label}: failed with ${got.error}, expected rows [${want.join(', ')}]`);
    else if (got.rows.join() !== [...want].sort().join()) violations.push(`${label}: returned [${got.rows.join(', ')}], expected [${want.join(', ')}]`);
  };
  const expectError = (label: string, got: Outcome, code: string) => {
    if (!('error' in got)) violations.push(`${label}: succeeded with [${got.rows.join(', ')}], expected error ${code}`);
    else if (got.error !== code) violations.push(`${label}: failed with ${got.error}, expected ${code}`);
  };

  for (const actor of actors) {
    const own = actor.kind === 'tenant' ? actor.seed : undefined;
    const other = actor.kind === 'tenant' ? (actor.seed === seeds.a ? seeds.b : seeds.a) : seeds.a;
    const failsWith = actor.kind === 'setting' ? actor.failsWith : undefined;

    for (const [table, spec] of Object.entries(TABLES)) {
      const granted = (op: Op) => spec.grants.includes(op);
      const label = (op: string) => `${actor.name} ${op} ${table}`;
      const check = (op: Op, got: Outcome, want: string[]) => {
        if (!granted(op)) expectError(label(op), got, '42501');
        else if (failsWith) expectError(label(op), got, failsWith);
        else expectRows(label(op), got, want);
      };

      // SELECT: exactly the actor's own rows; nothing for an actor without a workspace.
      check('select', await cell(tx, actor, `select ${spec.key}::text as id from ${table}`, []), own?.rows[table] ?? []);

      // INSERT into the actor's own workspace succeeds; into the other workspace never does.
      if (own && spec.workspaceColumn !== null && table !== 'workspaces') {
        const got = await cell(tx, actor, spec.insert, [own.workspaceId, own.artifactId]);
        if (!granted('insert')) expectError(label('insert own'), got, '42501');
        else if (!('rows' in got) || got.rows.length !== 1) violations.push(`${label('insert own')}: ${JSON.stringify(got)}`);
      }
      const crossInsert = await cell(tx, actor, spec.insert, [other.workspaceId, other.artifactId]);
      if (failsWith && granted('insert')) expectError(label('insert other'), crossInsert, failsWith);
      else expectError(label('insert other'), crossInsert, '42501');

      // UPDATE and DELETE: own rows are reachable (where granted); the other workspace's are not.
      for (const op of ['update', 'delete'] as const) {
        const statement =
          op === 'update'
            ? `update ${table} set ${spec.updatable} = ${spec.updatable} where ${spec.key}::text = any($1::text[]) returning ${spec.key}::text as id`
            : `delete from ${table} where ${spec.key}::text = any($1::text[]) returning ${spec.key}::text as id`;
        const otherRows = other.rows[table] ?? [];
        if (otherRows.length > 0) check(op, await cell(tx, actor, statement, [otherRows]), []);
        if (own) check(op, await cell(tx, actor, statement, [own.rows[table] ?? []]), own.rows[table] ?? []);
      }
    }

    // match_artifacts: hits only when the caller's workspace and p_workspace_id agree.
    for (const target of [seeds.a, seeds.b]) {
      const got = await cell(
        tx,
        actor,
        `select chunk_id::text as id from brain.match_artifacts($1::uuid, $2::vector, 'tenancy', 10, -1)`,
        [target.workspaceId, vector],
      );
      const want = own === target ? (target.rows.chunks ?? []) : [];
      const label = `${actor.name} match_artifacts(p_workspace_id = ${target === seeds.a ? 'A' : 'B'})`;
      if (failsWith) expectError(label, got, failsWith);
      else expectRows(label, got, want);
    }

    // current_workspace_id(): the transaction's workspace, nothing else.
    const current = await cell(tx, actor, 'select brain_private.current_workspace_id()::text as id', []);
    if (failsWith) expectError(`${actor.name} current_workspace_id()`, current, failsWith);
    else {
      const expected = own?.workspaceId ?? (actor.kind === 'setting' && actor.value ? actor.value : 'null');
      expectRows(`${actor.name} current_workspace_id()`, current, [expected]);
    }
  }
  return violations;
}
