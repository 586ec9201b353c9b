import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('./driver-guard-child.ts', import.meta.url));

function run(mode: 'driver' | 'other'): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    proc.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe("a long-lived command when postgres.js throws its write-after-close TypeError", () => {
  it('logs DB_CONNECTION_UNUSABLE with its next step, drains, and exits 1 to be restarted instead of crashing', async () => {
    const result = await run('driver');
    expect(result.stderr).not.toContain('TypeError');
    const lines = result.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    const logged = lines.find((l) => l.code === 'DB_CONNECTION_UNUSABLE');
    expect(logged?.msg).toMatch(/cannot use it again/);
    expect(logged?.next).toMatch(/drains and exits so that its supervisor/);
    expect(result.stdout).toContain('drained');
    expect(result.stdout).not.toContain('still running');
    expect(result.code).toBe(1);
  }, 30_000);

  it('leaves any other uncaught error fatal, logged with its stack', async () => {
    const result = await run('other');
    const fatal = result.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg?: string; err?: { stack?: string } }).find((l) => l.msg === 'uncaught exception');
    expect(fatal?.err?.stack).toContain('something else broke');
    expect(result.stdout).not.toContain('drained');
    expect(result.code).toBe(1);
  }, 30_000);
});
