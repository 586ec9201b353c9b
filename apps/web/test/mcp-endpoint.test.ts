import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createMcpToken, revokeMcpToken } from '@brain/accounts';
import { loadConfig } from '@brain/config';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createWorkspace, inspectorUnavailable, logger, mcpDeps, runInspector, saveAndIndex } from '@brain/mcp/testing';
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
    const metadataUrl = `${new URL(config.publicUrl).origin}/.well-known/oauth-protected-resource/mcp`;
    expect(missing.headers.get('www-authenticate')).toBe(`Bearer realm="company-brain", resource_metadata="${metadataUrl}"`);
    expect(await missing.json()).toMatchObject({ error: 'MCP_TOKEN_MISSING' });

    const unknown = await post({ authorization: `Bearer brain_mcp_${'x'.repeat(43)}` });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toMatch(/^Bearer realm="company-brain", resource_metadata="[^"]+", error="invalid_token"/);
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

  it('GET, DELETE, PUT, PATCH and OPTIONS are 405 with Allow: POST; a body over the limit is a JSON-RPC error with 413', async () => {
    const get = await fetch(url, { headers: { authorization: `Bearer ${tokenA}`, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    for (const method of ['DELETE', 'PUT', 'PATCH', 'OPTIONS']) {
      const answer = await fetch(url, { method, headers: { authorization: `Bearer ${tokenA}` } });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get('allow'), method).toBe('POST');
    }
    const huge = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${tokenA}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'save_source', arguments: { text: 'x'.repeat(1_100_000) } } }),
    });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: the body is over the 1048576-byte limit/) } });
  });

  const rawPost = (body: string, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${tokenA}`, ...headers }, body });

  it('a body that is not one JSON-RPC message gets a JSON-RPC error, never retry advice (issue 21 item 4)', async () => {
    const cases: [string, number, RegExp, string | number | null][] = [
      ['{"jsonrpc": "2.0", "id": 1, "method": ', -32700, /^Parse error: the message is not valid JSON/, null],
      ['', -32700, /^Parse error: the message is empty/, null],
      ['[{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}]', -32600, /batches are not supported/, null],
      ['{"id": 9, "method": "tools/list"}', -32600, /^Invalid Request: not a JSON-RPC 2\.0 message/, 9],
      ['"tools/list"', -32600, /^Invalid Request/, null],
    ];
    for (const [body, code, message, id] of cases) {
      const answer = await rawPost(body);
      const text = await answer.text();
      expect(answer.status, body).toBe(400);
      expect(answer.headers.get('content-type'), body).toMatch(/^application\/json/);
      expect(JSON.parse(text), body).toEqual({ jsonrpc: '2.0', id, error: { code, message: expect.stringMatching(message) } });
      expect(text).not.toMatch(/INTERNAL|try again/i);
    }
    // Whatever the declared type, the body is read as JSON-RPC: text/plain gets the same answer.
    const plain = await rawPost('not json', { 'content-type': 'text/plain' });
    expect((await plain.json())).toMatchObject({ error: { code: -32700 } });
  });

  it('protocol errors over HTTP: unknown tool and missing name are -32602; invalid arguments an INVALID_ARGUMENTS result (items 1-3)', async () => {
    const rpc = async (params: unknown) => (await (await rawPost(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params }))).json()) as { result?: CallToolResult; error?: { code: number; message: string } };
    expect(await rpc({ name: 'nope', arguments: {} })).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/^Unknown tool: "nope"/) } });
    expect(await rpc({ arguments: {} })).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/^Invalid params: tools\/call needs "name"/) } });
    const invalid = await rpc({ name: 'search_brain', arguments: { query: 'release', limit: 11, top_k: 2 } });
    expect(invalid.result?.isError).toBe(true);
    const text = (invalid.result?.content[0] as { text: string }).text;
    expect(text).toMatch(/^Error INVALID_ARGUMENTS: The arguments to search_brain are not valid: limit: Too big.*; unknown argument "top_k"\.\nNext: /);
    const init = (await (
      await rawPost(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } }))
    ).json()) as { result: { capabilities: unknown } };
    expect(init.result.capabilities).toEqual({ tools: {} });
  });

  it('accepts every loopback spelling of this server’s origin and PUBLIC_URL’s, refuses others (item 9)', async () => {
    const port = url.port;
    for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`, new URL(config.publicUrl).origin]) {
      expect((await post({ authorization: `Bearer ${tokenA}`, origin })).status, origin).toBe(200);
    }
    for (const origin of ['http://evil.example', `http://evil.example:${port}`, `http://127.0.0.1.evil.example:${port}`, 'null', `https://localhost.evil.example:${port}`]) {
      expect((await post({ authorization: `Bearer ${tokenA}`, origin })).status, origin).toBe(403);
    }
  });

  it('serves RFC 9728 metadata that says where tokens come from, with no OAuth server to chase (item 6)', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const answer = await fetch(new URL(path, url));
      expect(answer.status, path).toBe(200);
      const metadata = (await answer.json()) as Record<string, unknown>;
      expect(metadata).toMatchObject({ resource: `${config.publicUrl}/mcp`, bearer_methods_supported: ['header'] });
      expect(metadata.authorization_servers).toBeUndefined();
      expect(String(metadata.brain_token_instructions)).toMatch(/\/mcp-token.*brain token create/);
    }
  });

  const noInspector = inspectorUnavailable();
  if (noInspector) console.warn(`skipping the MCP Inspector test: ${noInspector}`);
  it.skipIf(noInspector !== undefined)('the MCP Inspector CLI lists the tools and searches with a bearer header; without one it stops at the 401', { timeout: 120_000 }, async () => {
    const env = { PATH: process.env.PATH ?? '' };
    const header = ['--transport', 'http', '--header', `Authorization: Bearer ${tokenA}`];
    const listed = await runInspector([url.href, ...header, '--method', 'tools/list'], env);
    expect(listed.code, listed.stderr).toBe(0);
    const { tools } = JSON.parse(listed.stdout) as { tools: { name: string }[] };
    expect(tools.map((t) => t.name)).toContain('search_brain');
    const searched = await runInspector([url.href, ...header, '--method', 'tools/call', '--tool-name', 'search_brain', '--tool-arg', 'query=how do we roll back a release?'], env);
    expect(searched.code, searched.stderr).toBe(0);
    const result = JSON.parse(searched.stdout) as CallToolResult;
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ matched: true, passages: [{ source_title: 'Release rollback' }] });
    // What the Inspector shows is the whole result, both blocks: the budget counts both (item 8).
    console.info(`Inspector output for one search_brain call: ${searched.stdout.length} characters; structuredContent ${JSON.stringify(result.structuredContent).length}, text ${(result.content[0] as { text: string }).text.length}`);

    const unknown = await runInspector([url.href, ...header, '--method', 'tools/call', '--tool-name', 'nope'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr + unknown.stdout).toMatch(/-32602: Unknown tool: "nope"/);
    const anonymous = await runInspector([url.href, '--transport', 'http', '--method', 'tools/list'], env);
    expect(anonymous.code).toBe(1);
    // The Inspector shows the 401 body as it is: what is missing and where a token comes from.
    expect(anonymous.stderr + anonymous.stdout).toMatch(/MCP_TOKEN_MISSING.*brain token create/);
  });
});
