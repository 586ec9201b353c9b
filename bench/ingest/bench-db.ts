import { randomBytes } from 'node:crypto';
import { migrate, openPglite, openPostgres, type Database } from '@brain/db';
import postgres from 'postgres';

export interface BenchDb {
  db: Database;
  engine: string;
  /** A second connection pool to the same database (postgres only). */
  open(): Database;
  /** The database's URL (postgres only). */
  url?: string | undefined;
  close(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** A fresh, migrated database for one run: in-memory PGlite, or a throwaway PostgreSQL database. */
export async function openBenchDb(adminUrl: string | undefined): Promise<BenchDb> {
  if (!adminUrl) {
    const db = await openPglite();
    await migrate(db);
    const [v] = await db.query<{ v: string }>("select current_setting('server_version') as v");
    return { db, engine: `PGlite (PostgreSQL ${v?.v})`, open: () => db, close: () => db.close() };
  }
  const name = `brain_bench_ingest_${randomBytes(4).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = withDatabase(adminUrl, name);
  const open = () => openPostgres({ url, display: name, prepare: true, maxConnections: 8 });
  const db = open();
  await migrate(db);
  const [v] = await db.query<{ v: string; vector: string }>(
    "select current_setting('server_version') as v, (select extversion from pg_extension where extname = 'vector') as vector",
  );
  return {
    db,
    engine: `PostgreSQL ${v?.v} + pgvector ${v?.vector}`,
    open,
    url,
    async close() {
      await db.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}
