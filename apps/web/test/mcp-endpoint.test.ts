import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createMcpToken, revokeMcpToken } from '@brain/accounts';
import { loadConfig } from '@brain/config';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createWorkspace, logger, mcpDeps, saveAndIndex } from '@brain/mcp/testing';
import { buildApp, type WebApp } from '../src/index.ts';

const config = loadConfig({}, { cwd: process.cwd() });

describeDb('POST /mcp (Streamable HTTP, stateless, bearer tokens)', (suite) => {
  let app: WebApp;
  let url: URL;
  let a = '';
  let b = '';
  let tokenA = '';
  let tokenB = '';
  let theirSource = '';

  beforeAll(async () => {
    a = await createWorkspace(suite.db, 'acme');
    b = await createWorkspace(suite.db, 'globex');
    await saveAndIndex(suite.db, a, 'Release rollback', 'To roll back a release, redeploy the previous tag with the deploy button.');
    theirSource = await saveAndIndex(suite.db, b, 'Globex drill', 'The launch code for the Globex rollback drill is 7741.');
    tokenA = (await createMcpToken(suite.db, a, 'Claude Desktop (Ana)', 'test')).token;
    tokenB = (await createMcpToken(suite.db, b, 'Globex agent', 'test')).token;
    app = await buildApp({ config, db: suite.db, logger, mcp: mcpDeps(suite.db) });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    url = new URL('/mcp', address);
  });
  afterAll(async () => {
    await app.close();
  });

  async function connect(token: string | undefined): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: token === undefined ? {} : { Authorization: `Bearer ${token}` } } });
    const client = new Client({ name: 'http-contract-test', version: '1.0.0' });
    await client.connect(transport);
    return client;
  }

  const post = (headers: Record<string, string>) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });

  it('lists the tools and searches this token’s workspace, with no session id (stateless)', async () => {
    const client = await connect(tokenA);
    expect(client.getInstructions()).toMatch(/split into passages/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('search_brain');
    const result = (await client.callTool({ name: 'search_brain', arguments: { query: 'how do we roll back a release?' } })) as CallToolResult;
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ matched: true, passages: [{ source_title: 'Release rollback' }] });
    expect((client.transport as StreamableHTTPClientTransport).sessionId).toBeUndefined();
    await client.close();
  });

  it('a token of one workspace never reads another workspace', async () => {
    const client = await connect(tokenA);
    const search = (await client.callTool({ name: 'search_brain', arguments: { query: 'launch code for the Globex rollback drill 7741', limit: 10 } })) as CallToolResult;
    expect(JSON.stringify(search.structuredContent)).not.toContain(theirSource);
    const get = (await client.callTool({ name: 'get_source', arguments: { id: theirSource, include_forgotten: true } })) as CallToolResult;
    expect(get.isError).toBe(true);
    expect(JSON.stringify(get.content)).toContain('SOURCE_NOT_FOUND');
    const forget = (await client.callTool({ name: 'forget_source', arguments: { id: theirSource } })) as CallToolResult;
    expect(forget.isError).toBe(true);
    await client.close();
    const theirs = await connect(tokenB);
    const own = (await theirs.callTool({ name: 'get_source', arguments: { id: theirSource } })) as CallToolResult;
    expect(own.structuredContent).toMatchObject({ source: { id: theirSource, forgotten: false } });
    await theirs.close();
  });

  it('401 with WWW-Authenticate without a token, with a malformed or unknown one, and with a revoked one', async () => {
    const missing = await post({});
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="company-brain"');
    expect(await missing.json()).toMatchObject({ error: 'MCP_TOKEN_MISSING' });

    const unknown = await post({ authorization: `Bearer brain_mcp_${'x'.repeat(43)}` });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toMatch(/^Bearer realm="company-brain", error="invalid_token"/);
    expect(await unknown.json()).toMatchObject({ error: 'MCP_TOKEN_UNKNOWN' });
    expect((await post({ authorization: 'Basic dXNlcjpwYXNz' })).status).toBe(401);

    const doomed = await createMcpToken(suite.db, a, 'Soon revoked', 'test');
    expect((await post({ authorization: `Bearer ${doomed.token}` })).status).toBe(200);
    await revokeMcpToken(suite.db, a, doomed.summary.id);
    const revoked = await post({ authorization: `Bearer ${doomed.token}` });
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toMatchObject({ error: 'MCP_TOKEN_REVOKED' });

    await expect(connect(undefined)).rejects.toThrow(/401|unauthorized|MCP_TOKEN_MISSING/i);
  });

  it('records the token’s last use', async () => {
    const fresh = await createMcpToken(suite.db, a, 'Last use', 'test');
    const lastUsed = async () =>
      (await withService(suite.db, (tx) => tx.query<{ last_used_at: Date | null }>('select last_used_at from mcp_tokens where id = $1', [fresh.summary.id])))[0]?.last_used_at;
    expect(await lastUsed()).toBeNull();
    expect((await post({ authorization: `Bearer ${fresh.token}` })).status).toBe(200);
    expect(await lastUsed()).toBeInstanceOf(Date);
  });

  it('refuses a browser page of another origin (DNS rebinding), before looking at the token', async () => {
    const foreign = await post({ authorization: `Bearer ${tokenA}`, origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: 'MCP_ORIGIN_REFUSED' });
    expect((await post({ authorization: `Bearer ${tokenA}`, origin: new URL(config.publicUrl).origin })).status).toBe(200);
  });

  it('GET and DELETE are 405; a body over the limit is 413', async () => {
    const get = await fetch(url, { headers: { authorization: `Bearer ${tokenA}`, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await fetch(url, { method: 'DELETE', headers: { authorization: `Bearer ${tokenA}` } })).status).toBe(405);
    const huge = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${tokenA}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'save_source', arguments: { text: 'x'.repeat(1_100_000) } } }),
    });
    expect(huge.status).toBe(413);
  });
});
