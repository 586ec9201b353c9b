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

/**
 * Suites run PGlite in-process unless TEST_PGLITE_THREAD=on. The thread costs each suite about
 * 0.9 CPU s more (2.6 against 1.7 to open it), across some 150 suites of `npm test`, whose ten
 * minutes are CPU-bound on two cores. The threaded path stays covered where it is the subject:
 * every `brain` child process runs it as `brain start` does, and the thread's own suites
 * (pglite-thread*, thread-priority, the answering thread's) ask for it by name.
 */
export function pgliteThread(): boolean {
  return ['on', '1', 'true', 'yes'].includes(process.env.TEST_PGLITE_THREAD?.trim().toLowerCase() ?? '');
}
