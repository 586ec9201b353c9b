import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { DEFAULT_BUDGET_CHARS } from './budget.ts';
import type { CallerResolver, McpDeps } from './deps.ts';
import { SERVER_INSTRUCTIONS } from './instructions.ts';
import { ToolRegistry } from './protocol/tool-registry.ts';
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
 * Only what is served: tools, with no `listChanged` (the tool set never changes, and the
 * stateless HTTP transport has no stream a notification could travel on).
 */
export const SERVER_CAPABILITIES = { tools: {} } as const;

/**
 * One MCP server acting for one caller (a workspace). Cheap to build: the HTTP transport builds
 * one per request (stateless), stdio one per process.
 */
export function createBrainMcpServer(deps: McpDeps, caller: CallerResolver): Server {
  const server = new Server({ name: SERVER_NAME, version: SERVER_VERSION }, { instructions: SERVER_INSTRUCTIONS, capabilities: SERVER_CAPABILITIES });
  const tools = new ToolRegistry(deps.logger);
  const ctx: ToolContext = { deps, caller, budgetChars: deps.budgetChars ?? DEFAULT_BUDGET_CHARS };
  registerSearchBrain(tools, ctx);
  registerListSources(tools, ctx);
  registerGetSource(tools, ctx);
  registerSaveSource(tools, ctx);
  registerForgetSource(tools, ctx);
  registerRestoreSource(tools, ctx);
  tools.serve(server);
  return server;
}
