export type Backend = 'pglite' | 'postgres';

/**
 * Database suites always run on PGlite, and also on PostgreSQL when TEST_DATABASE_URL is set
 * (CI sets it: see .ci/run). The URL must name a server where this user may create databases.
 */
export function testDatabaseUrl(): string | undefined {
  const url = process.env.TEST_DATABASE_URL?.trim();
  return url ? url : undefined;
}

/**
 * TEST_POSTGRES_ONLY=1 leaves PGlite out of the suites declared per backend: the Supabase-like CI
 * job (.ci/supabase-like-deploy.sh) runs them again for the server only, `npm test` having run
 * them on PGlite already.
 */
export function postgresOnly(): boolean {
  return Boolean(testDatabaseUrl()) && process.env.TEST_POSTGRES_ONLY === '1';
}

export function testBackends(): Backend[] {
  if (!testDatabaseUrl()) return ['pglite'];
  return postgresOnly() ? ['postgres'] : ['pglite', 'postgres'];
}

/** PGlite suites run the database in a worker thread, the embedded default; TEST_PGLITE_THREAD=off runs it in-process. */
export function pgliteThread(): boolean {
  return !['off', '0', 'false', 'no'].includes(process.env.TEST_PGLITE_THREAD?.trim().toLowerCase() ?? '');
}
