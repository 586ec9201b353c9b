// The soak's processes: each child gets a process group of its own, so a kill reaches what it
// started too (extraction sandboxes), and every group is killed when the soak ends, however it
// ends: normal exit, Ctrl-C, SIGTERM or a crash.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

export interface Launched {
  name: string;
  child: ChildProcess;
  match: RegExpMatchArray;
  exited: Promise<number | null>;
}

// Every group ever started: a leader that exited may have left members behind.
const groups = new Set<number>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid !== undefined) killPgid(child.pid, signal);
}

function killPgid(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}

/** SIGKILL to every group: the last word, synchronous, safe inside an 'exit' handler. */
export function killAll(): void {
  for (const pgid of groups) killPgid(pgid, 'SIGKILL');
}

let installed = false;
function installExitHooks(): void {
  if (installed) return;
  installed = true;
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      process.stderr.write(`\nsoak: ${signal}, killing every child process\n`);
      killAll();
      process.exit(130);
    });
  }
  process.on('uncaughtException', (error) => {
    process.stderr.write(`soak: crashed (${error.stack ?? String(error)}), killing every child process\n`);
    killAll();
    process.exit(2);
  });
}

/** Starts `command`, resolves once its output matches `ready`; output after that goes to `logFile`. */
export function launch(name: string, command: string, args: string[], options: { cwd: string; env: Record<string, string>; ready: RegExp; logFile: string; timeoutMs?: number }): Promise<Launched> {
  installExitHooks();
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  if (child.pid !== undefined) groups.add(child.pid);
  const log = fs.createWriteStream(options.logFile, { flags: 'a' });
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => resolve(code)),
  );
  let out = '';
  return new Promise((resolve, reject) => {
    let started = false;
    const timer = setTimeout(() => {
      killGroup(child, 'SIGKILL');
      reject(new Error(`${name} did not start in ${(options.timeoutMs ?? 120_000) / 1000} s:\n${out}`));
    }, options.timeoutMs ?? 120_000);
    const onData = (d: Buffer) => {
      log.write(d);
      if (started) return;
      out += d.toString();
      const match = options.ready.exec(out);
      if (match) {
        started = true;
        clearTimeout(timer);
        resolve({ name, child, match, exited });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      if (!started) {
        clearTimeout(timer);
        reject(new Error(`${name} exited with ${code} before it was ready:\n${out}`));
      }
    });
  });
}

/** SIGTERM to the process itself (it drains), then SIGKILL to its group after `graceMs`. */
export async function stop(launched: Launched, graceMs: number): Promise<number | null> {
  if (launched.child.exitCode !== null) return launched.child.exitCode;
  launched.child.kill('SIGTERM');
  const timer = setTimeout(() => killGroup(launched.child, 'SIGKILL'), graceMs);
  const code = await launched.exited;
  clearTimeout(timer);
  // Whatever it started and left behind goes with it.
  killGroup(launched.child, 'SIGKILL');
  return code;
}

/** kill -9 of the process's whole group, as an OOM kill or a lost machine would do. */
export async function crash(launched: Launched): Promise<void> {
  killGroup(launched.child, 'SIGKILL');
  await launched.exited;
}
