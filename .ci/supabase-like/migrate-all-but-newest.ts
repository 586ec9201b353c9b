// Applies every migration but the newest with `brain migrate`'s own migrator, so the next
// `brain migrate` applies the newest alone, on a connection of its own (an incremental deploy).
// Usage: DATABASE_URL=... npx tsx .ci/supabase-like/migrate-all-but-newest.ts
import { loadMigrations, migrate, openPostgres } from '@brain/db';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is not set');
const db = openPostgres({ url, display: 'all-but-newest', prepare: true, maxConnections: 1 });
try {
  const result = await migrate(db, loadMigrations().slice(0, -1));
  console.log(`applied ${result.applied.length}, the newest left out`);
} finally {
  await db.close();
}
