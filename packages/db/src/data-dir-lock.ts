import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '@brain/errors';

export interface DataDirLock {
  release: () => void;
}

interface LockRecord {
  pid: number;
  startedAt: string;
  command: string;
}

/**
 * PGlite has no lock of its own, and two processes opening one data directory corrupt it. One
 * process holds this file; a second gets a clear error instead of a broken database. A lock
 * left by a process that no longer runs is taken over.
 */
export function acquireDataDirLock(dataDir: string, command: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'brain.lock');
  const record: LockRecord = { pid: process.pid, startedAt: new Date().toISOString(), command };

  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, JSON.stringify(record), { flag: 'wx' });
      const release = () => {
        try {
          const current = readLock(lockPath);
          if (current?.pid === process.pid) fs.unlinkSync(lockPath);
        } catch {
          // already gone
        }
        process.off('exit', release);
      };
      process.on('exit', release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readLock(lockPath);
      if (holder && holder.pid !== process.pid && isProcessAlive(holder.pid)) {
        throw new AppError({
          code: 'DB_LOCKED',
          message: `The embedded database in ${dataDir} is open in another brain process (pid ${holder.pid}, "${holder.command}", since ${holder.startedAt}).`,
          nextStep:
            'Stop that process first, or use the running server (the playground, or its HTTP API), or point this command at another BRAIN_DATA_DIR.',
          httpStatus: 409,
        });
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new AppError({ code: 'DB_LOCKED', message: `Could not take the lock ${lockPath}.`, nextStep: 'Try again.' });
}

function readLock(lockPath: string): LockRecord | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as Partial<LockRecord>;
    return typeof parsed.pid === 'number' ? (parsed as LockRecord) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid runs on this machine (EPERM: it does, under another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
