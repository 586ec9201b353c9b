export type Backend = 'pglite' | 'postgres';

/**
 * Database suites always run on PGlite, and also on PostgreSQL when TEST_DATABASE_URL is set
 * (CI sets it: see .ci/run). The URL must name a server where this user may create databases.
 */
export function testDatabaseUrl(): string | undefined {
  const url = process.env.TEST_DATABASE_URL?.trim();
  return url ? url : undefined;
}

export function testBackends(): Backend[] {
  return testDatabaseUrl() ? ['pglite', 'postgres'] : ['pglite'];
}

/** PGlite suites run the database in a worker thread, the embedded default; TEST_PGLITE_THREAD=off runs it in-process. */
export function pgliteThread(): boolean {
  return !['off', '0', 'false', 'no'].includes(process.env.TEST_PGLITE_THREAD?.trim().toLowerCase() ?? '');
}
