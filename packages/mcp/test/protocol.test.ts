import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { EVERYTHING, type Database } from '@brain/db';
import { SERVER_CAPABILITIES } from '../src/index.ts';
import { connect, INITIALIZE, mcpDeps, rawSession, stdioSession, textOf, type RawReply } from '../src/testing/index.ts';

const caller = { workspaceId: '00000000-0000-0000-0000-000000000000', name: 'protocol', audience: EVERYTHING };
/** None of these calls reaches the database: each is refused before a tool runs. */
const deps = () => mcpDeps({} as Database);

const call = (id: number, params: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params });

/** One line, no zod dump, no retry advice: a client shows it as it is. */
function expectOneLineError(reply: RawReply, code: number, pattern: RegExp): void {
  expect(reply.result, JSON.stringify(reply)).toBeUndefined();
  expect(reply.error?.code).toBe(code);
  expect(reply.error?.message).toMatch(pattern);
  expect(reply.error?.message).not.toMatch(/\n|MCP error|try again/i);
}

describe('MCP protocol errors, in process (issue 21 items 1-3, 7, 10)', () => {
  let raw: Awaited<ReturnType<typeof rawSession>>;
  let client: Client;
  let tools: Tool[];

  beforeAll(async () => {
    raw = await rawSession(deps(), caller);
    client = await connect(deps(), caller);
    tools = (await client.listTools()).tools;
  });
  afterAll(async () => {
    await Promise.all([raw.close(), client.close()]);
  });

  it('an unknown tool is a JSON-RPC -32602 error naming the tools there are, not a tool result', async () => {
    expectOneLineError(await raw.send(call(1, { name: 'nope', arguments: {} })), -32602, /^Unknown tool: "nope"\. This server's tools are search_brain, /);
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  it('tools/call without a name, or with arguments that are not an object, is -32602 with a one-line message', async () => {
    expectOneLineError(await raw.send(call(2, { arguments: { query: 'x' } })), -32602, /^Invalid params: tools\/call needs "name", one of search_brain/);
    expectOneLineError(await raw.send(call(3, undefined)), -32602, /needs "name"/);
    expectOneLineError(await raw.send(call(4, { name: 42 })), -32602, /needs "name"/);
    expectOneLineError(await raw.send(call(5, { name: 'search_brain', arguments: ['x'] })), -32602, /"arguments" must be an object/);
  });

  it('arguments that fail the schema are an INVALID_ARGUMENTS tool error with a Next: line', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['search_brain', { query: 'release', limit: 11 }, /limit: Too big/],
      ['list_sources', { status: 'bogus' }, /status: Invalid option/],
      ['get_source', {}, /id: Invalid input/],
      ['save_source', { text: 'x'.repeat(200_001) }, /text: Too big/],
      ['search_brain', { query: 'release', top_k: 3 }, /unknown argument "top_k"/],
      ['get_source', { id: 'a', idd: 'b', extra: 1 }, /unknown arguments "idd", "extra"/],
    ];
    for (const [name, args, problem] of cases) {
      const result = await client.callTool({ name, arguments: args });
      const text = textOf(result as never);
      expect(result.isError, `${name} ${JSON.stringify(args).slice(0, 80)}`).toBe(true);
      expect(text).toMatch(new RegExp(`^Error INVALID_ARGUMENTS: The arguments to ${name} are not valid: `));
      expect(text).toMatch(problem);
      expect(text).toMatch(new RegExp(`\\nNext: Call ${name} again with the arguments corrected`));
      expect(text).not.toMatch(/MCP error|-32602/);
      expect(text.length).toBeLessThan(1_000);
    }
  });

  it('every inputSchema refuses unknown arguments (additionalProperties: false)', () => {
    expect(tools).toHaveLength(6);
    for (const tool of tools) expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
  });

  it('declares only the capabilities it serves: tools, without listChanged', async () => {
    const init = await raw.send({ ...INITIALIZE, id: 10 });
    expect(init.result?.capabilities).toEqual({ tools: {} });
    expect(client.getServerCapabilities()).toEqual(SERVER_CAPABILITIES);
  });

  it('no schema uses a type array; nullable fields are anyOf [type, null]', () => {
    const typeArrays: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (node === null || typeof node !== 'object') return;
      if (Array.isArray((node as { type?: unknown }).type)) typeArrays.push(path);
      for (const [key, value] of Object.entries(node)) if (key !== 'enum' && key !== 'required') walk(value, `${path}.${key}`);
    };
    for (const tool of tools) {
      walk(tool.inputSchema, `${tool.name}.input`);
      walk(tool.outputSchema, `${tool.name}.output`);
    }
    expect(typeArrays).toEqual([]);
    const search = tools.find((t) => t.name === 'search_brain');
    const passage = (search?.outputSchema?.properties?.passages as { items: { properties: Record<string, unknown> } }).items.properties;
    expect(passage.source_url).toEqual({ description: 'Cite this; null for saved text.', anyOf: [{ type: 'string' }, { type: 'null' }] });
    expect(passage.similarity).toMatchObject({ anyOf: [{ type: 'number' }, { type: 'null' }] });
  });
});

describe('brain mcp stdio framing, in process (issue 21 item 5)', () => {
  it('answers a malformed line with -32700, a batch and a non-JSON-RPC value with -32600, and keeps serving', async () => {
    const session = stdioSession(deps(), caller);
    try {
      session.writeLine('{"jsonrpc": "2.0", "id": 1, "method": ');
      expectOneLineError(await session.nextReply(), -32700, /^Parse error: the message is not valid JSON/);
      session.writeLine('   ');
      session.writeLine(JSON.stringify([INITIALIZE]));
      const batch = await session.nextReply();
      expectOneLineError(batch, -32600, /batches are not supported/);
      expect(batch.id).toBeNull();
      session.writeLine(JSON.stringify({ id: 7, method: 'tools/list' }));
      const invalid = await session.nextReply();
      expectOneLineError(invalid, -32600, /^Invalid Request: not a JSON-RPC 2\.0 message/);
      expect(invalid.id).toBe(7);
      session.writeLine(JSON.stringify(INITIALIZE));
      expect((await session.nextReply()).result).toMatchObject({ capabilities: { tools: {} } });
      session.writeLine(JSON.stringify(call(8, { name: 'nope' })));
      expectOneLineError(await session.nextReply(), -32602, /Unknown tool/);
    } finally {
      await session.end();
    }
  });
});
