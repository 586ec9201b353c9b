import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadMigrations, migrate, migrationsFingerprint, openPglite } from '../index.ts';

/**
 * initdb in WASM takes seconds; loading a dumped, migrated data directory takes well under one.
 * The dump is cached on disk, keyed by the migrations' checksums, so an edited or new migration
 * builds a fresh one and every test process after the first reuses it.
 */
export async function pgliteTemplate(): Promise<Blob> {
  const fingerprint = migrationsFingerprint(loadMigrations());
  const dir = path.join(os.tmpdir(), 'company-brain-test');
  const file = path.join(dir, `pglite-${fingerprint}.tar.gz`);
  if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);

  const db = await openPglite();
  try {
    await migrate(db);
    const dump = await db.dumpDataDir();
    const bytes = Buffer.from(await dump.arrayBuffer());
    fs.mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, bytes);
    fs.renameSync(tmp, file);
    return new Blob([bytes]);
  } finally {
    await db.close();
  }
}
