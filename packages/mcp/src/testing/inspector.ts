import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The MCP Inspector's CLI, pinned as a dev dependency. 1.0.3 is the last line that runs on
 * Node 20: @modelcontextprotocol/inspector 0.16 and later (and so its 2.x `--strict`) declare
 * Node >= 22.7.5 / 22.19.0. Resolved by path: the package exports no entry point.
 */
const INSPECTOR_BUILD = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../../node_modules/@modelcontextprotocol/inspector-cli/build');

export interface InspectorRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Why the Inspector cannot run here, or undefined when it can. */
export function inspectorUnavailable(): string | undefined {
  return fs.existsSync(path.join(INSPECTOR_BUILD, 'index.js')) ? undefined : `the MCP Inspector CLI is not installed at ${path.relative(process.cwd(), INSPECTOR_BUILD)} (npm ci installs it)`;
}

/**
 * Runs `mcp-inspector-cli <target…> <options…>` with exactly `env` (which a stdio target
 * inherits: give it PATH and what the server needs) and collects its output. Its working directory
 * is its own build folder: 1.0.3 finds its package.json relative to the working directory, and
 * fails anywhere else ("Cannot find module …/package.json").
 */
export function runInspector(args: string[], env: Record<string, string>, timeoutMs = 120_000): Promise<InspectorRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['index.js', ...args], {
      cwd: INSPECTOR_BUILD,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the Inspector timed out: ${args.join(' ')}\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
