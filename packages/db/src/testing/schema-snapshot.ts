import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { migrate, openPostgres } from '../index.ts';
import { withDatabase } from './postgres-template.ts';

const run = promisify(execFile);

/** The snapshot is of this major version: what CI runs (.ci/provision-postgres.sh). Another major's pg_dump writes other text. */
export const SNAPSHOT_PG_MAJOR = 15;

export const SCHEMA_FILE = fileURLToPath(new URL('../../../../supabase/schema.sql', import.meta.url));

const HEADER = `-- The schema a fresh \`brain migrate\` leaves: tables, policies, grants and every function's live
-- definition (match_artifacts included). Generated, do not edit: \`npm run db:schema\` rewrites it
-- from a schema-only pg_dump of PostgreSQL ${SNAPSHOT_PG_MAJOR}, and packages/db/test/schema-snapshot.test.ts
-- fails in CI when it differs. supabase/migrations/*.sql stay what deploys apply.
`;

/** Where the server cannot produce the snapshot CI compares, the reason; otherwise undefined. */
export async function snapshotUnavailable(adminUrl: string): Promise<string | undefined> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [server] = await sql<{ major: number; superuser: boolean }[]>`
      select current_setting('server_version_num')::int / 10000 as major,
             (select rolsuper from pg_roles where rolname = current_user) as superuser`;
    if (server?.major !== SNAPSHOT_PG_MAJOR) return `the snapshot is dumped from PostgreSQL ${SNAPSHOT_PG_MAJOR} and this server is ${server?.major}`;
    // Supabase's demoted postgres migrates under other default privileges, so its dump differs by design.
    if (!server.superuser) return 'the snapshot is of a plain PostgreSQL migrated by a superuser, and this role is not one (a Supabase-like server?)';
  } finally {
    await sql.end({ timeout: 5 });
  }
  if (!pgDumpPath()) return `no pg_dump ${SNAPSHOT_PG_MAJOR} found (install postgresql-client-${SNAPSHOT_PG_MAJOR})`;
  return undefined;
}

function pgDumpPath(): string | undefined {
  const debian = `/usr/lib/postgresql/${SNAPSHOT_PG_MAJOR}/bin/pg_dump`;
  return fs.existsSync(debian) ? debian : undefined;
}

/**
 * Migrates a new, empty database on the server adminUrl names, dumps its schema and drops it.
 * The text depends only on the migrations: server versions, the restrict keys of pg_dump ≥ 15.14
 * (random per run) and the owner are left out; the migrators' own ledgers are not the schema.
 */
export async function dumpMigratedSchema(adminUrl: string): Promise<string> {
  const reason = await snapshotUnavailable(adminUrl);
  if (reason) throw new Error(`cannot dump the schema snapshot: ${reason}`);
  const name = `brain_schema_${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
    const url = withDatabase(adminUrl, name);
    const db = openPostgres({ url, display: name, prepare: true, maxConnections: 1 });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    const { stdout } = await run(
      pgDumpPath() as string,
      ['--schema-only', '--no-owner', '--no-tablespaces', '--exclude-schema=brain_meta', '--exclude-schema=supabase_migrations', `--dbname=${url}`],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    return normalizeDump(stdout);
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end({ timeout: 5 });
  }
}

export function normalizeDump(dump: string): string {
  const body = dump
    .split('\n')
    .filter((line) => !/^\\(un)?restrict /.test(line) && !/^-- Dumped (from database|by pg_dump) version /.test(line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return `${HEADER}\n${body}\n`;
}
