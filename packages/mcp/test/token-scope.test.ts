/**
 * MCP tokens take an audience when created (issue 14): 'public' by default, or one channel's.
 * search_brain, list_sources and get_source show nothing outside it, and say nothing about it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { authenticateMcpToken, createMcpToken } from '@brain/accounts';
import { withWorkspace } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { scopeAudience } from '../src/index.ts';
import { call, connect, createWorkspace, mcpDeps, saveAndIndex } from '../src/testing/index.ts';

const STAFF = '800000000000000002';

describeDb('MCP token scopes', (suite) => {
  let ws = '';
  let publicId = '';
  let staffId = '';
  const clients: Client[] = [];

  async function clientFor(scope: 'public' | `channel:${string}`): Promise<Client> {
    const { token } = await createMcpToken(suite.db, ws, `agent ${clients.length}`, 'test', scope);
    const principal = await authenticateMcpToken(suite.db, token);
    expect(principal.audienceScope).toBe(scope);
    const client = await connect(mcpDeps(suite.db), { workspaceId: ws, name: principal.name, audience: await scopeAudience(principal) });
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'scoped');
    publicId = await saveAndIndex(suite.db, ws, 'Holiday policy', 'Everyone gets the holiday week off; the office closes on the Friday before.');
    staffId = await saveAndIndex(suite.db, ws, 'Layoffs', 'Holiday week layoffs: March 3, keep this quiet until the all-hands.');
    await withWorkspace(suite.db, ws, (tx) => tx.query('update artifacts set audience = $2 where id = $1', [staffId, `channel:${STAFF}`]));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });

  it('a token is public unless created for a channel', async () => {
    const { token } = await createMcpToken(suite.db, ws, 'default scope', 'test');
    expect((await authenticateMcpToken(suite.db, token)).audienceScope).toBe('public');
    await expect(createMcpToken(suite.db, ws, 'bad scope', 'test', 'channel:general')).rejects.toMatchObject({ code: 'MCP_TOKEN_SCOPE_INVALID' });
  });

  it('a public token never finds, lists or opens a channel’s source', async () => {
    const client = await clientFor('public');
    const search = await call<{ passages: { source_id: string }[] }>(client, 'search_brain', { query: 'holiday week layoffs' });
    const found = search.structuredContent.passages.map((p) => p.source_id);
    expect(found).toContain(publicId);
    expect(found).not.toContain(staffId);
    const list = await call<{ sources: { id: string }[]; total: number }>(client, 'list_sources', {});
    expect(list.structuredContent.sources.map((s) => s.id)).toEqual([publicId]);
    expect(list.structuredContent.total).toBe(1);
    const get = await call(client, 'get_source', { id: staffId });
    expect(get.isError).toBe(true);
    expect(JSON.stringify(get.content)).toContain('SOURCE_NOT_FOUND');
    expect(JSON.stringify(get.content)).not.toContain('Layoffs');
  });

  it('a token created for the channel finds that channel’s source too', async () => {
    const client = await clientFor(`channel:${STAFF}`);
    const search = await call<{ passages: { source_id: string }[] }>(client, 'search_brain', { query: 'holiday week layoffs' });
    expect(search.structuredContent.passages.map((p) => p.source_id)).toEqual(expect.arrayContaining([publicId, staffId]));
    // What it saves stays in its channel.
    const saved = await call<{ source: { id: string } }>(client, 'save_source', { text: 'Staff rota: Ana covers the holiday week.' });
    const [row] = await withWorkspace(suite.db, ws, (tx) => tx.query<{ audience: string }>('select audience from artifacts where id = $1', [saved.structuredContent.source.id]));
    expect(row?.audience).toBe(`channel:${STAFF}`);
  });
});
