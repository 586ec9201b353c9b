import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dumpMigratedSchema, SCHEMA_FILE, snapshotUnavailable, testDatabaseUrl } from '../src/testing/index.ts';

// supabase/schema.sql is read as the live schema (every function's current definition): a
// migration added or changed without `npm run db:schema` must fail CI, not leave it stale.
describe('supabase/schema.sql', () => {
  it('is what a fresh migration dumps on PostgreSQL 15 (else: npm run db:schema)', async (ctx) => {
    const url = testDatabaseUrl();
    const reason = url ? await snapshotUnavailable(url) : 'TEST_DATABASE_URL is not set (bash .ci/run sets it)';
    if (reason) {
      console.warn(`[skipped] supabase/schema.sql drift check: ${reason}`);
      ctx.skip(reason);
      return;
    }
    const committed = fs.existsSync(SCHEMA_FILE) ? fs.readFileSync(SCHEMA_FILE, 'utf8') : '';
    const dumped = await dumpMigratedSchema(url as string);
    expect(committed, 'supabase/schema.sql is stale: run `npm run db:schema` and commit it').toBe(dumped);
  });
});
