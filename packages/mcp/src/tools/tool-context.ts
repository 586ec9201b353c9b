import type { CallerResolver, McpDeps } from '../deps.ts';

/** What every tool handler gets: the services, the caller, and the result budget. */
export interface ToolContext {
  deps: McpDeps;
  caller: CallerResolver;
  budgetChars: number;
}
