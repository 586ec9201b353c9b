import { openPglite } from '../index.ts';
import { pgliteThread, postgresOnly, testDatabaseUrl } from './backends.ts';
import { pgliteTemplate, pgliteTemplateDir } from './pglite-template.ts';
import { postgresTemplate, withDatabase } from './postgres-template.ts';
import postgres from 'postgres';

/**
 * Builds the migrated templates once, before any test file runs, and prints which database
 * engines this run covers, so a log shows at a glance whether PostgreSQL was exercised.
 */
export default async function globalSetup(): Promise<void> {
  const lines: string[] = [];
  if (postgresOnly()) {
    lines.push('PGlite: not run (TEST_POSTGRES_ONLY=1)');
  } else {
    const pglite = await openPglite({ loadDataDir: await pgliteTemplate() });
    const [lite] = await pglite.query<{ pg: string; vector: string }>(
      "select current_setting('server_version') as pg, (select extversion from pg_extension where extname = 'vector') as vector",
    );
    await pglite.close();
    // Built here, once, rather than by the first of a package's test files to need a data folder.
    await pgliteTemplateDir();
    lines.push(`PGlite (PostgreSQL ${lite?.pg}, pgvector ${lite?.vector}; ${pgliteThread() ? 'in a worker thread: TEST_PGLITE_THREAD=on' : 'in-process; TEST_PGLITE_THREAD=on runs it in a worker thread'})`);
  }

  const url = testDatabaseUrl();
  if (url) {
    const template = await postgresTemplate(url);
    const sql = postgres(withDatabase(url, template), { max: 1, onnotice: () => {} });
    const [pg] = await sql<{ pg: string; vector: string }[]>`
      select current_setting('server_version') as pg, (select extversion from pg_extension where extname = 'vector') as vector`;
    await sql.end({ timeout: 5 });
    lines.push(`PostgreSQL ${pg?.pg} (pgvector ${pg?.vector})`);
  } else {
    lines.push('PostgreSQL: not run (TEST_DATABASE_URL is not set)');
  }
  console.log(`[database suites] ${lines.join(' · ')}`);
}
