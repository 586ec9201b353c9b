import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { waitUntil } from '@brain/testkit';
import { templateDataDir } from './brain-process.ts';
import { runCli } from './run-cli.ts';
import { brainArgv } from './brain-bin.ts';

/** An MCP client that starts `brain mcp` as Claude Desktop does: a child process on stdio. */
async function startMcp(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: brainArgv(['mcp']),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

describe('brain mcp over stdio, embedded', () => {
  let dataDir = '';
  const env = { BRAIN_DATA_DIR: '' };
  beforeAll(async () => {
    dataDir = await templateDataDir('brain-mcp-');
    env.BRAIN_DATA_DIR = dataDir;
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('lists the tools, finds a passage saved with `brain save`, and indexes what save_source saves', { timeout: 240_000 }, async () => {
    const file = path.join(dataDir, 'release.md');
    fs.writeFileSync(file, '# Release process\n\nTo roll back a release, redeploy the previous tag with the deploy button; never revert on main.\n');
    const saved = await runCli(['save', file, '--wait', '--json'], env, 120_000);
    expect(saved.code, saved.stderr).toBe(0);
    expect(JSON.parse(saved.stdout)[0]).toMatchObject({ status: 'ready' });

    const { client, stderr } = await startMcp(env);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['forget_source', 'get_source', 'list_sources', 'restore_source', 'save_source', 'search_brain']);
      const result = (await client.callTool({ name: 'search_brain', arguments: { query: 'how do we roll back a release?' } })) as CallToolResult;
      expect(result.isError, JSON.stringify(result.content)).toBeUndefined();
      expect(result.structuredContent).toMatchObject({ matched: true, passages: [{ source_title: 'Release process', content: expect.stringContaining('redeploy the previous tag') }] });

      // Embedded, `brain mcp` holds the database, so it indexes what save_source queues itself.
      const saved = (await client.callTool({ name: 'save_source', arguments: { text: 'The staging soak lasts forty-eight hours before every release.', title: 'Staging soak' } })) as CallToolResult;
      const id = (saved.structuredContent as { source: { id: string } }).source.id;
      let status = '';
      await waitUntil(
        async () => {
          const got = (await client.callTool({ name: 'get_source', arguments: { id } })) as CallToolResult;
          status = (got.structuredContent as { source: { status: string } }).source.status;
          return status === 'ready';
        },
        { timeoutMs: 60_000, intervalMs: 500, what: 'save_source’s source to be indexed', details: () => `status ${status}` },
      );
      const soak = (await client.callTool({ name: 'search_brain', arguments: { query: 'how long is the staging soak?' } })) as CallToolResult;
      expect(soak.structuredContent).toMatchObject({ passages: [{ source_id: id }] });
    } finally {
      await client.close();
    }
    expect(stderr()).not.toMatch(/error/i);
  });

  it('with BRAIN_MCP_TOKEN acts for the token’s workspace, and refuses the token once revoked', { timeout: 240_000 }, async () => {
    const created = await runCli(['token', 'create', '--name', 'Claude Desktop (test)', '--workspace', 'docs', '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    const { id, token } = JSON.parse(created.stdout) as { id: string; token: string };
    expect(token).toMatch(/^brain_mcp_/);

    const { client } = await startMcp({ ...env, BRAIN_MCP_TOKEN: token });
    try {
      // The "docs" workspace is empty: the local workspace's passage is not its business.
      const result = (await client.callTool({ name: 'search_brain', arguments: { query: 'how do we roll back a release?' } })) as CallToolResult;
      expect(result.structuredContent).toMatchObject({ matched: false, passages: [] });
    } finally {
      await client.close();
    }

    const listed = await runCli(['token', 'list', '--workspace', 'docs', '--json'], env);
    const [summary] = JSON.parse(listed.stdout) as { id: string; last_used_at: string | null; revoked_at: string | null }[];
    expect(summary).toMatchObject({ id, revoked_at: null });
    expect(summary?.last_used_at).not.toBeNull();
    expect(listed.stdout).not.toContain(token);

    const revoked = await runCli(['token', 'revoke', id, '--workspace', 'docs'], env);
    expect(revoked.stdout).toContain('Revoked token "Claude Desktop (test)"');
    const refused = await runCli(['mcp'], { ...env, BRAIN_MCP_TOKEN: token });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: The MCP token was revoked at .*\n {2}next: Ask the workspace owner for a new token/);
    expect(refused.stdout).toBe('');
  });
});
