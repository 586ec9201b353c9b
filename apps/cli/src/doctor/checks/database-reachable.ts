import { migrate, openDatabase } from '@brain/db';
import type { DoctorCheck } from '../check.ts';
import { failWith, needsConfig, pass } from '../check.ts';

/** Opens the configured database and asks for its version; later checks use the connection. */
export const databaseReachableCheck: DoctorCheck = {
  id: 'database',
  title: 'Database reachable',
  async run(ctx) {
    const config = ctx.config;
    if (!config) return needsConfig;
    try {
      const db = await openDatabase(config.database, { command: 'brain doctor' });
      ctx.db = db;
      // The embedded database is this installation's own: every brain command migrates it on open.
      if (db.kind === 'pglite') await migrate(db);
      const [row] = await db.query<{ version: string }>("select current_setting('server_version') as version");
      return pass(`${db.display} answers (PostgreSQL ${row?.version ?? 'unknown version'})`);
    } catch (error) {
      return failWith(
        error,
        config.mode === 'postgres'
          ? 'Check DATABASE_URL (host, port, user, password; on Supabase the pooler URL under Project Settings → Database) and that this machine may connect to it.'
          : 'Stop the other brain process that holds the embedded database, or set BRAIN_DATA_DIR to another directory.',
      );
    }
  },
};
