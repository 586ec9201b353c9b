import { randomBytes } from 'node:crypto';
import { openPglite, openPostgres, type Database } from '../index.ts';
import postgres from 'postgres';
import { pgliteThread, testDatabaseUrl, type Backend } from './backends.ts';
import { pgliteTemplate } from './pglite-template.ts';
import { postgresTemplate, withDatabase } from './postgres-template.ts';

export interface TestDatabase {
  backend: Backend;
  db: Database;
  /** A URL for more connections to the same database (postgres only), e.g. for race tests. */
  url: string | undefined;
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** An empty database with nothing migrated (for the migrator's own tests). */
  empty?: boolean;
  /** Receives NOTICE messages (auto_explain can send plans of statements inside functions as notices). */
  onNotice?: (message: string) => void;
  /**
   * PGlite in a worker thread, as `brain start` runs it, whatever TEST_PGLITE_THREAD says: for
   * suites whose subject needs the thread (another thread's connection to it, say).
   */
  pgliteThread?: boolean;
}

/** A fresh, migrated database of its own for one suite. Never a mock: the real engine. */
export async function createTestDatabase(backend: Backend, options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  if (backend === 'pglite') {
    const db = await openPglite({
      ...(options.empty ? {} : { loadDataDir: await pgliteTemplate() }),
      display: 'pglite:memory',
      thread: options.pgliteThread ?? pgliteThread(),
      extensionModules: { auto_explain: '@electric-sql/pglite/contrib/auto_explain' },
      ...(options.onNotice ? { onNotice: options.onNotice } : {}),
    });
    return { backend, db, url: undefined, drop: () => db.close() };
  }

  const adminUrl = testDatabaseUrl();
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const template = await postgresTemplate(adminUrl);
  const name = `brain_t_${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(options.empty ? `create database ${name}` : `create database ${name} template ${template}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = withDatabase(adminUrl, name);
  const db = openPostgres({
    url,
    display: name,
    prepare: true,
    maxConnections: 20,
    ...(options.onNotice ? { onNotice: options.onNotice } : {}),
  });
  return {
    backend,
    db,
    url,
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
