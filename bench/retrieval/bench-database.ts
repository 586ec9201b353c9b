import { createHash } from 'node:crypto';
import { migrate, openPostgres, type Database } from '@brain/db';
import postgres from 'postgres';

export interface BenchDatabase {
  name: string;
  db: Database;
  /** True when an earlier --keep run left this database loaded with the same data parameters. */
  reused: boolean;
  drop(): Promise<void>;
  close(): Promise<void>;
}

export interface DataParameters {
  workspaces: number;
  chunks: number;
  zipfS: number;
  seed: number;
  queriesPerBucket: number;
  halfvec: boolean;
  /** Build the HNSW index with this ef_construction instead of the migrations' value. */
  hnswEfConstruction: number | null;
}

/** A name that depends on the data parameters, so --reuse only ever finds the same data. */
export function benchDatabaseName(params: DataParameters, shapeVersion: string): string {
  const hash = createHash('sha256').update(JSON.stringify({ ...params, shapeVersion })).digest('hex').slice(0, 10);
  return `brain_bench_${params.chunks}_${hash}`;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * Opens the bench database: reused when asked and complete, otherwise created fresh and migrated
 * with the project's migrator. One connection: queries are timed one at a time.
 */
export async function openBenchDatabase(
  adminUrl: string,
  name: string,
  options: { reuse: boolean; onNotice: (message: string) => void },
): Promise<BenchDatabase> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  let reused = false;
  try {
    const [me] = await admin<{ superuser: boolean }[]>`select rolsuper as superuser from pg_roles where rolname = current_user`;
    if (!me?.superuser) {
      throw new Error(
        'The retrieval benchmark needs a superuser connection: it loads data past Row Level Security and reads plans with auto_explain. ' +
          'Point BENCH_DATABASE_URL at a throwaway cluster (eval "$(bash .ci/start-postgres.sh)").',
      );
    }
    const exists = (await admin`select 1 from pg_database where datname = ${name}`).length > 0;
    if (exists && options.reuse) reused = await isComplete(withDatabase(adminUrl, name));
    if (!reused) {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.unsafe(`create database ${name}`);
    }
  } finally {
    await admin.end({ timeout: 5 });
  }

  const db = openPostgres({
    url: withDatabase(adminUrl, name),
    display: name,
    prepare: true,
    maxConnections: 1,
    applicationName: 'company-brain:bench-retrieval',
    onNotice: options.onNotice,
  });
  // A reused database gets the migrations written since it was kept (a retuned match_artifacts):
  // --reuse measures the function as it is now, on the same data.
  await migrate(db);
  return {
    name,
    db,
    reused,
    close: () => db.close(),
    async drop() {
      await db.close();
      const admin2 = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await admin2.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await admin2.end({ timeout: 5 });
      }
    },
  };
}

async function isComplete(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`select to_regclass('bench.meta') is not null as ok`;
    if (!rows[0]?.ok) return false;
    const done = await sql`select 1 from bench.meta where key = 'loaded'`;
    return done.length > 0;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
