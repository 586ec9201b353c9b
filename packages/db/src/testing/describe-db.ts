import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Database } from '../index.ts';
import { testBackends, testDatabaseUrl, type Backend } from './backends.ts';
import { createTestDatabase, type TestDatabase, type TestDatabaseOptions } from './test-database.ts';

export interface DbSuite {
  readonly backend: Backend;
  /** The suite's database; available inside tests and hooks. */
  readonly db: Database;
  /** More connections to the same database (postgres only). */
  readonly url: string | undefined;
}

/**
 * Declares a suite once per backend: "name [pglite]" always, "name [postgres]" when
 * TEST_DATABASE_URL is set. Each gets its own freshly migrated database.
 */
export function describeDb(name: string, body: (suite: DbSuite) => void, options: TestDatabaseOptions = {}): void {
  for (const backend of testBackends()) {
    describe(`${name} [${backend}]`, () => body(suiteOn(backend, options)));
  }
}

/**
 * For what only real connections can show (races between sessions). Without TEST_DATABASE_URL the
 * suite reports one skipped test whose name says why, instead of vanishing silently.
 */
export function describePostgres(name: string, body: (suite: DbSuite) => void, options: TestDatabaseOptions = {}): void {
  describe(`${name} [postgres]`, () => {
    if (testDatabaseUrl()) {
      body(suiteOn('postgres', options));
      return;
    }
    it('is skipped: TEST_DATABASE_URL is not set, and this needs concurrent PostgreSQL connections (bash .ci/run sets it)', (ctx) => {
      ctx.skip('TEST_DATABASE_URL is not set');
    });
  });
}

/** Registers the hooks that create and drop the suite's database; call inside a describe. */
function suiteOn(backend: Backend, options: TestDatabaseOptions): DbSuite {
  let handle: TestDatabase | undefined;
  beforeAll(async () => {
    handle = await createTestDatabase(backend, options);
  });
  afterAll(async () => {
    await handle?.drop();
  });
  return {
    backend,
    get db() {
      if (!handle) throw new Error('the suite database is not ready yet (use it inside tests or hooks)');
      return handle.db;
    },
    get url() {
      return handle?.url;
    },
  };
}
