import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallerResolver, McpDeps } from './deps.ts';
import { createBrainMcpServer } from './server.ts';

/**
 * Serves MCP on this process's stdin/stdout until the client closes stdin. Nothing else may
 * write to stdout meanwhile: logs go to stderr.
 */
export async function serveStdio(deps: McpDeps, caller: CallerResolver, streams: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream } = {}): Promise<void> {
  const server = createBrainMcpServer(deps, caller);
  const transport = new StdioServerTransport(streams.stdin as never, streams.stdout as never);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  const stdin = streams.stdin ?? process.stdin;
  stdin.once('end', () => void server.close());
  await server.connect(transport);
  await closed;
}
