import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AppError } from '@brain/errors';
import { acquireDataDirLock, openPostgres, withService, withWorkspace, type Database } from '../src/index.ts';
import { describeDb } from '../src/testing/index.ts';
import { createWorkspace } from './fixtures.ts';

describeDb('withWorkspace', (suite) => {
  /** One connection, so "the next request" provably reuses the session the transaction ran on. */
  async function oneConnection<T>(fn: (db: Database) => Promise<T>): Promise<T> {
    if (suite.backend === 'pglite') return fn(suite.db);
    const db = openPostgres({ url: suite.url as string, display: 'single', prepare: true, maxConnections: 1 });
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  }

  it('runs as brain_tenant with the workspace set, and leaves nothing behind on the session', async () => {
    const id = await createWorkspace(suite.db, 'leak-check');
    await oneConnection(async (db) => {
      const [before] = await db.query<{ who: string }>('select current_user as who');
      const [inside] = await withWorkspace(db, id, (tx) =>
        tx.query<{ who: string; ws: string }>("select current_user as who, current_setting('app.workspace_id') as ws"),
      );
      expect(inside).toEqual({ who: 'brain_tenant', ws: id });
      const [after] = await db.query<{ who: string; ws: string | null }>(
        "select current_user as who, nullif(current_setting('app.workspace_id', true), '') as ws",
      );
      expect(after).toEqual({ who: before?.who, ws: null });
    });
  });

  it('leaves nothing behind when the work throws, and keeps none of its writes', async () => {
    const id = await createWorkspace(suite.db, 'rollback-check');
    await oneConnection(async (db) => {
      await expect(
        withWorkspace(db, id, async (tx) => {
          await tx.query("insert into artifacts (workspace_id, kind, source_key) values ($1, 'text', 'doomed')", [id]);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      const [after] = await db.query<{ who: string; ws: string | null }>(
        "select current_user as who, nullif(current_setting('app.workspace_id', true), '') as ws",
      );
      expect(after?.who).not.toBe('brain_tenant');
      expect(after?.ws).toBeNull();
    });
    const rows = await withService(suite.db, (tx) => tx.query("select 1 from artifacts where source_key = 'doomed'"));
    expect(rows).toEqual([]);
  });

  it('refuses an id that is not a UUID before touching the database', async () => {
    const error = await withWorkspace(suite.db, "x' or 1=1 --", async () => 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('WORKSPACE_ID_INVALID');
  });

  it('keeps concurrent requests for different workspaces apart', async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, (_, i) => createWorkspace(suite.db, `concurrent-${i}`)));
    const seen = await Promise.all(
      ids.flatMap((id) =>
        Array.from({ length: 5 }, () =>
          withWorkspace(suite.db, id, async (tx) => {
            const rows = await tx.query<{ id: string }>('select id from workspaces');
            return { want: id, got: rows.map((r) => r.id) };
          }),
        ),
      ),
    );
    for (const s of seen) expect(s.got).toEqual([s.want]);
  });
});

describe('session-level settings', () => {
  it('appear nowhere in the code: every SET is LOCAL and every set_config is transaction-scoped', () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'packages', 'apps', 'supabase'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\n')
      // schema.sql is pg_dump's output, never run by the app: its preamble sets search_path for a restore session.
      .filter((f) => /\.(ts|sql)$/.test(f) && !f.endsWith('.test.ts') && f !== 'supabase/schema.sql' && fs.existsSync(path.join(root, f)));
    expect(files.length).toBeGreaterThan(10);
    const offenders: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      for (const [i, line] of text.split('\n').entries()) {
        const code = line.replace(/--.*$/, '').replace(/\/\/.*$/, '');
        // A bare SET ROLE / SET app.* outlives the transaction; only SET LOCAL is allowed.
        if (/\bset\s+(session\s+)?(role|app\.)/i.test(code) && !/\bset\s+local\b/i.test(code)) {
          offenders.push(`${file}:${i + 1}: ${line.trim()}`);
        }
        if (/set_config\([^)]*,\s*false\s*\)/i.test(code)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe('embedded data directory lock', () => {
  const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'brain-lock-'));

  it('refuses a second process with a message naming the holder and what to do', async () => {
    const d = dir();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      fs.writeFileSync(path.join(d, 'brain.lock'), JSON.stringify({ pid: holder.pid, startedAt: 'earlier', command: 'brain start' }));
      const error = (() => {
        try {
          acquireDataDirLock(d, 'brain save');
        } catch (e) {
          return e as AppError;
        }
        return undefined;
      })();
      expect(error?.code).toBe('DB_LOCKED');
      expect(error?.message).toContain(`pid ${holder.pid}`);
      expect(error?.message).toContain('brain start');
      expect(error?.nextStep).toMatch(/Stop that process/);
    } finally {
      holder.kill();
    }
  });

  it('takes over a lock left by a process that is gone, and releases it', async () => {
    const d = dir();
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => gone.on('exit', resolve));
    fs.writeFileSync(path.join(d, 'brain.lock'), JSON.stringify({ pid: gone.pid, startedAt: 'earlier', command: 'crashed' }));
    const lock = acquireDataDirLock(d, 'brain migrate');
    expect(JSON.parse(fs.readFileSync(path.join(d, 'brain.lock'), 'utf8')).pid).toBe(process.pid);
    lock.release();
    expect(fs.existsSync(path.join(d, 'brain.lock'))).toBe(false);
  });
});
