import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { loadMigrations, migrate, migrationsFingerprint, openPglite } from '../index.ts';
import { inMemoryBlob } from '../in-memory-blob.ts';

const cacheDir = () => path.join(os.tmpdir(), 'company-brain-test');
const fingerprint = () => migrationsFingerprint(loadMigrations());

/**
 * initdb in WASM takes seconds; loading a dumped, migrated data directory takes well under one.
 * The dump is cached on disk, keyed by the migrations' checksums, so an edited or new migration
 * builds a fresh one and every test process after the first reuses it. It is kept as a plain tar:
 * un-gzipping it cost each suite's database about 0.2 CPU seconds of its 1.5.
 * Each call reads the file again: the bytes are the caller's own (see `inMemoryBlob`).
 */
export async function pgliteTemplate(): Promise<Blob> {
  const file = path.join(cacheDir(), `pglite-${fingerprint()}.tar`);
  if (fs.existsSync(file)) return inMemoryBlob(fs.readFileSync(file));

  const db = await openPglite();
  try {
    await migrate(db);
    const dump = Buffer.from(await (await db.dumpDataDir()).arrayBuffer());
    const gzipped = dump[0] === 0x1f && dump[1] === 0x8b;
    const bytes = gzipped ? zlib.gunzipSync(dump) : dump;
    fs.mkdirSync(cacheDir(), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, bytes);
    fs.renameSync(tmp, file);
    return inMemoryBlob(bytes);
  } finally {
    await db.close();
  }
}

/**
 * The same template as a closed data directory on disk, for suites that need a `pgdata` folder
 * (a `brain` process's BRAIN_DATA_DIR): copying it costs a tenth of a CPU second, while loading
 * the dump into a new folder boots PGlite (about 1.5–2 CPU seconds each time). Built once per
 * migrations fingerprint; concurrent builders each build their own and the first rename wins.
 */
export async function pgliteTemplateDir(): Promise<string> {
  const dir = path.join(cacheDir(), `pglite-${fingerprint()}.pgdata`);
  if (fs.existsSync(dir)) return dir;
  const tmp = `${dir}.${process.pid}.tmp`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const db = await openPglite({ dataDir: tmp, loadDataDir: await pgliteTemplate() });
  await db.close();
  try {
    fs.renameSync(tmp, dir);
  } catch (error) {
    if (!fs.existsSync(dir)) throw error;
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return dir;
}

/** A fresh copy of the migrated template at `pgdata` (which must not exist yet). */
export async function copyPgliteTemplate(pgdata: string): Promise<void> {
  fs.cpSync(await pgliteTemplateDir(), pgdata, { recursive: true, errorOnExist: true, force: false });
}
