import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { EVERYTHING, type Database } from '@brain/db';
import { DESCRIPTION_PARTS, SERVER_INSTRUCTIONS } from '../src/index.ts';
import { connect, mcpDeps } from '../src/testing/index.ts';

const TOOLS = ['search_brain', 'list_sources', 'get_source', 'save_source', 'forget_source', 'restore_source'];

/** tools/list needs no database: the contract is the same for every workspace. */
describe('the MCP contract (tools/list and instructions)', () => {
  let client: Client;
  let tools: Tool[];

  beforeAll(async () => {
    client = await connect(mcpDeps({} as Database), { workspaceId: '00000000-0000-0000-0000-000000000000', name: 'contract', audience: EVERYTHING });
    tools = (await client.listTools()).tools;
  });
  afterAll(async () => {
    await client.close();
  });

  it('matches the committed snapshot: changing a name, description, schema or annotation is deliberate', async () => {
    const contract = { server: client.getServerVersion(), instructions: client.getInstructions(), tools };
    await expect(`${JSON.stringify(contract, null, 2)}\n`).toMatchFileSnapshot('./contract/tools-list.json');
  });

  it('explains the domain: passages, citations, soft and undoable forgetting', () => {
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toBe(SERVER_INSTRUCTIONS);
    expect(instructions).toMatch(/split into passages/);
    expect(instructions).toMatch(/must cite/i);
    expect(instructions).toMatch(/forgetting is soft and can be undone with restore_source for 30 days/);
    expect(instructions).toMatch(/Do not answer from general knowledge/);
  });

  it('offers exactly the six intent-named tools', () => {
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
  });

  it('every description has purpose, when to use, not for (naming a sibling tool), side effects, reversibility and an example', () => {
    for (const tool of tools) {
      const description = tool.description ?? '';
      const positions = DESCRIPTION_PARTS.map((part) => description.indexOf(part));
      expect(positions.every((p) => p >= 0), `${tool.name} lacks a part`).toBe(true);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      const notFor = /Not for: (.*)/.exec(description)?.[1] ?? '';
      const siblings = TOOLS.filter((t) => t !== tool.name && notFor.includes(t));
      expect(siblings.length, `${tool.name}'s "Not for" names no sibling tool`).toBeGreaterThan(0);
      const example = /Example: (.*)/.exec(description)?.[1] ?? '';
      expect(() => JSON.parse(example) as unknown, `${tool.name}'s example is not JSON`).not.toThrow();
      expect(tool.title).toBeTruthy();
    }
  });

  it('sets all four annotations explicitly, and truthfully', () => {
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    for (const tool of tools) {
      for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        expect(typeof tool.annotations?.[key], `${tool.name}.${key}`).toBe('boolean');
      }
    }
    for (const name of ['search_brain', 'list_sources', 'get_source']) {
      expect(hints[name]).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    }
    // Saving a URL makes the worker fetch it from the web; forgetting hides a source from everyone.
    expect(hints.save_source).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true });
    expect(hints.forget_source).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false });
    expect(hints.restore_source).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false });
  });

  it('declares an output schema on every tool, and puts enums and bounds in the schemas', () => {
    for (const tool of tools) expect(tool.outputSchema?.type, tool.name).toBe('object');
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    const props = (name: string) => byName[name]?.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props('list_sources').status?.enum).toEqual(['queued', 'indexing', 'ready', 'failed']);
    expect(props('search_brain').limit).toMatchObject({ minimum: 1, maximum: 10 });
    expect(byName.search_brain?.inputSchema.required).toEqual(['query']);
    const passage = (byName.search_brain?.outputSchema?.properties?.passages as { items: { properties: Record<string, { items?: { enum?: string[] } }> } }).items;
    expect(passage.properties.matched_by?.items?.enum).toEqual(['vector', 'keyword']);
    const source = (byName.get_source?.outputSchema?.properties?.source as { properties: Record<string, { enum?: string[] }> }).properties;
    expect(source.status?.enum).toEqual(['queued', 'indexing', 'ready', 'failed']);
    expect(source.kind?.enum).toEqual(['url', 'file', 'text', 'discord_message', 'discord_thread']);
  });
});
