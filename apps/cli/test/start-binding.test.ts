import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnBrain, templateDataDir, type BrainProcess } from './brain-process.ts';

/** This machine's first non-loopback IPv4 address, if it has one. */
function externalAddress(): string | undefined {
  return Object.values(os.networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(2000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe('brain start with no configuration', () => {
  let brain: BrainProcess | undefined;
  let dataDir = '';
  afterAll(async () => {
    if (brain && brain.child.exitCode === null) {
      brain.child.kill('SIGTERM');
      await brain.exited;
    }
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('listens on this machine only: loopback answers, the machine’s network address does not', { timeout: 240_000 }, async () => {
    dataDir = await templateDataDir('brain-binding-');
    brain = spawnBrain(['start', '--port', '0'], { BRAIN_DATA_DIR: dataDir });
    const [, port] = await brain.waitForOutput(/health:\s+http:\/\/localhost:(\d+)\/healthz/);
    expect(brain.output()).toMatch(/listening:\s+127\.0\.0\.1:\d+ \(this machine only; HOST=0\.0\.0\.0 serves the network\)/);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    const external = externalAddress();
    if (!external) {
      console.log('start-binding: this machine has no non-loopback IPv4 address; only the printed binding was checked');
      return;
    }
    expect(await connects(external, Number(port))).toBe(false);
  });
});
