export { testBackends, testDatabaseUrl, type Backend } from './backends.ts';
export { createTestDatabase, type TestDatabase, type TestDatabaseOptions } from './test-database.ts';
export { describeDb, describePostgres, type DbSuite } from './describe-db.ts';
export { pgliteTemplate } from './pglite-template.ts';
export { prng } from './prng.ts';
export { createWorkspace } from './workspace-fixtures.ts';
export { enableAppLogin, type AppLogin } from './app-login.ts';
export { dumpMigratedSchema, normalizeDump, SCHEMA_FILE, snapshotUnavailable } from './schema-snapshot.ts';
export { threadNiceness } from './thread-niceness.ts';
