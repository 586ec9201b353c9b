import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { inspectorUnavailable, runInspector } from '@brain/mcp/testing';
import { templateDataDir } from './brain-process.ts';
import { runCli } from './run-cli.ts';
import { brainArgv } from './brain-bin.ts';

const noInspector = inspectorUnavailable();
if (noInspector) console.warn(`skipping the MCP Inspector test: ${noInspector}`);

/** Writes raw lines to `brain mcp`'s stdin and reads one reply line per expected reply. */
async function exchange(env: Record<string, string>, lines: string[], replies: number): Promise<{ id: unknown; result?: unknown; error?: { code: number; message: string } }[]> {
  const child = spawn(process.execPath, brainArgv(['mcp']), { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const got = new Promise<string[]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`brain mcp gave ${out.split('\n').length - 1} of ${replies} replies\n${out}\n${err}`)), 120_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const done = out.split('\n').filter(Boolean);
      if (done.length >= replies) {
        clearTimeout(timer);
        resolve(done);
      }
    });
  });
  for (const line of lines) child.stdin.write(`${line}\n`);
  try {
    return (await got).map((line) => JSON.parse(line) as { id: unknown; error?: { code: number; message: string } });
  } finally {
    child.stdin.end();
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

describe('brain mcp over stdio: framing errors and the MCP Inspector (issue 21)', () => {
  let dataDir = '';
  const env = { BRAIN_DATA_DIR: '' };
  beforeAll(async () => {
    dataDir = await templateDataDir('brain-mcp-conformance-');
    env.BRAIN_DATA_DIR = dataDir;
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('answers a malformed line with -32700 and a batch with -32600, then serves the next request', { timeout: 180_000 }, async () => {
    const initialize = { jsonrpc: '2.0', id: 3, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
    const [malformed, batch, init] = await exchange(env, ['{"jsonrpc": "2.0", "id": 1, "method": ', JSON.stringify([{ ...initialize, id: 2 }]), JSON.stringify(initialize)], 3);
    expect(malformed).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } });
    expect(batch).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/batches are not supported/) } });
    expect(init).toMatchObject({ id: 3, result: { capabilities: { tools: {} }, serverInfo: { name: 'company-brain' } } });
  });

  it.skipIf(noInspector !== undefined)('the MCP Inspector CLI lists the tools and finds a saved passage through `brain mcp`', { timeout: 300_000 }, async () => {
    const file = path.join(dataDir, 'release.md');
    fs.writeFileSync(file, '# Release process\n\nTo roll back a release, redeploy the previous tag with the deploy button; never revert on main.\n');
    const saved = await runCli(['save', file, '--wait', '--json'], env, 120_000);
    expect(saved.code, saved.stderr).toBe(0);

    const target = [process.execPath, ...brainArgv(['mcp'])];
    const inspectorEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env };
    const listed = await runInspector([...target, '--method', 'tools/list'], inspectorEnv);
    expect(listed.code, listed.stderr).toBe(0);
    const { tools } = JSON.parse(listed.stdout) as { tools: { name: string; inputSchema: { additionalProperties?: boolean } }[] };
    expect(tools.map((t) => t.name).sort()).toEqual(['forget_source', 'get_source', 'list_sources', 'restore_source', 'save_source', 'search_brain']);
    expect(tools.every((t) => t.inputSchema.additionalProperties === false)).toBe(true);
    expect(listed.stdout).not.toMatch(/"type": \[/);

    const searched = await runInspector([...target, '--method', 'tools/call', '--tool-name', 'search_brain', '--tool-arg', 'query=how do we roll back a release?'], inspectorEnv);
    expect(searched.code, searched.stderr).toBe(0);
    const result = JSON.parse(searched.stdout) as CallToolResult;
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ matched: true, passages: [{ source_title: 'Release process' }] });
  });
});
