import { expect, it } from 'vitest';
import { waitUntil } from '@brain/testkit';
import { loadMigrations, migrate, openPostgres, type MigrateResult } from '../src/index.ts';
import { describePostgres } from '../src/testing/index.ts';

// Roles are the server's, not one database's: the per-database migration lock cannot keep another
// database's migration off brain_app's settings row. Here that other migration is played by a
// session holding the same ALTER ROLE uncommitted until this migration is waiting on it.
const settingSql = `alter role brain_app set search_path = "$user", public, extensions`;
const ensureRoleSql = `
do $$
begin
  create role brain_app nologin noinherit nobypassrls;
exception when duplicate_object or unique_violation then
  null;
end
$$;`;

for (const start of [
  { name: 'updates the same settings row', before: settingSql },
  { name: 'inserts the same settings row', before: 'alter role brain_app reset search_path' },
]) {
  describePostgres(
    `migrate while another database's migration ${start.name}`,
    (suite) => {
      it('waits, loses the race, and applies that migration again instead of failing', async () => {
        const other = openPostgres({ url: suite.url as string, display: 'other', prepare: true, maxConnections: 1 });
        let migrating: Promise<MigrateResult | Error> | undefined;
        try {
          await other.exec(ensureRoleSql);
          await other.exec(start.before);
          await other.transaction(async (tx) => {
            await tx.exec(settingSql);
            migrating = migrate(suite.db).catch((error: Error) => error);
            await waitUntil(async () => {
              const [row] = await tx.query<{ waiting: number }>(
                `select count(*)::int as waiting from pg_locks
                 where not granted and locktype = 'transactionid' and transactionid::text = pg_current_xact_id()::text`,
              );
              return (row?.waiting ?? 0) > 0;
            }, { what: 'the migration to wait on the uncommitted ALTER ROLE' });
          });
          const result = await migrating;
          expect(result).not.toBeInstanceOf(Error);
          expect((result as MigrateResult).applied).toEqual(loadMigrations().map((m) => m.name));
          const [setting] = await suite.db.query<{ config: string[] }>(
            `select setconfig as config from pg_db_role_setting where setrole = 'brain_app'::regrole and setdatabase = 0`,
          );
          expect(setting?.config).toEqual(['search_path="$user", public, extensions']);
        } finally {
          await migrating;
          await other.close();
        }
      });
    },
    { empty: true },
  );
}
