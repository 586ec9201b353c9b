import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { DEFAULT_BUDGET_CHARS } from './budget.ts';
import type { CallerResolver, McpDeps } from './deps.ts';
import { SERVER_INSTRUCTIONS } from './instructions.ts';
import { registerForgetSource } from './tools/forget-source.ts';
import { registerGetSource } from './tools/get-source.ts';
import { registerListSources } from './tools/list-sources.ts';
import { registerRestoreSource } from './tools/restore-source.ts';
import { registerSaveSource } from './tools/save-source.ts';
import { registerSearchBrain } from './tools/search-brain.ts';
import type { ToolContext } from './tools/tool-context.ts';

export const SERVER_NAME = 'company-brain';
export const SERVER_VERSION = '0.1.0';

/**
 * One MCP server acting for one caller (a workspace). Cheap to build: the HTTP transport builds
 * one per request (stateless), stdio one per process.
 */
export function createBrainMcpServer(deps: McpDeps, caller: CallerResolver): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION }, { instructions: SERVER_INSTRUCTIONS, capabilities: { tools: {} } });
  const ctx: ToolContext = { deps, caller, budgetChars: deps.budgetChars ?? DEFAULT_BUDGET_CHARS };
  registerSearchBrain(server, ctx);
  registerListSources(server, ctx);
  registerGetSource(server, ctx);
  registerSaveSource(server, ctx);
  registerForgetSource(server, ctx);
  registerRestoreSource(server, ctx);
  return server;
}
