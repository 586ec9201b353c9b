import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPglite, type Database } from '@brain/db';
import { copyPgliteTemplate } from '@brain/db/testing';
import { waitUntil } from '@brain/testkit';
import { brainArgv } from './brain-bin.ts';

/** A long-running `brain` command (start, worker) in a child process, for signal and port tests. */
export interface BrainProcess {
  child: ChildProcess;
  /** Resolves with the exit code and when it happened (Date.now()). */
  exited: Promise<{ code: number | null; at: number }>;
  /** Everything written to stdout and stderr so far. */
  output: () => string;
  /** Resolves with the first match of `pattern` in the output; rejects if the process exits first, and kills it on a timeout. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** SIGKILL if still running (cleanup after a failed assertion). */
  kill(): void;
}

/** Spawns `brain <args>` with exactly `env` (plus PATH and HOME), logging at info as a server would. */
export function spawnBrain(args: string[], env: Record<string, string>): BrainProcess {
  const child = spawn(process.execPath, brainArgv(args), {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.on('exit', (code) => resolve({ code, at: Date.now() })));
  return {
    child,
    exited,
    output: () => output,
    async waitForOutput(pattern, timeoutMs = 120_000) {
      try {
        await waitFor(() => pattern.test(output) || child.exitCode !== null, timeoutMs, `brain ${args.join(' ')} to print ${pattern}`, () => output);
      } catch (error) {
        // A process left running would hold the data directory's lock and fail the next test too.
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        throw error;
      }
      const match = pattern.exec(output);
      if (!match) throw new Error(`brain ${args.join(' ')} exited (${child.exitCode}) before printing ${pattern}:\n${output}`);
      return match;
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** Polls `done` every 50 ms; the error names what was awaited, with the process output when given. */
export async function waitFor(done: () => boolean | Promise<boolean>, timeoutMs: number, what: string, output?: () => string): Promise<void> {
  await waitUntil(done, { timeoutMs, intervalMs: 50, what, ...(output ? { details: output } : {}) });
}

/**
 * A BRAIN_DATA_DIR whose embedded database starts from the migrated template (initdb and the
 * migrations would take most of a suite's time on a busy machine), with `seed` run against it.
 * For suites whose subject is not the first run: that is proven cold by migrate.test.ts and by
 * the playground's `brain start` in a fresh directory.
 */
export async function seededDataDir(seed: (db: Database) => Promise<void>, prefix = 'brain-process-'): Promise<string> {
  const dataDir = await templateDataDir(prefix);
  const db = await openPglite({ dataDir: path.join(dataDir, 'pgdata') });
  try {
    await seed(db);
  } finally {
    await db.close();
  }
  return dataDir;
}

/** A BRAIN_DATA_DIR holding only the migrated template: a second run's state, without a first run's cost. */
export async function templateDataDir(prefix: string): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  await copyPgliteTemplate(path.join(dataDir, 'pgdata'));
  return dataDir;
}
