import type { CallerResolver, McpDeps } from './deps.ts';
import { LineStdioTransport } from './protocol/line-stdio-transport.ts';
import { createBrainMcpServer } from './server.ts';

/**
 * Serves MCP on this process's stdin/stdout until the client closes stdin. Nothing else may
 * write to stdout meanwhile: logs go to stderr.
 */
export async function serveStdio(deps: McpDeps, caller: CallerResolver, streams: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream } = {}): Promise<void> {
  const server = createBrainMcpServer(deps, caller);
  const stdin = streams.stdin ?? process.stdin;
  const transport = new LineStdioTransport(stdin, streams.stdout ?? process.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  stdin.once('end', () => void server.close());
  await server.connect(transport);
  await closed;
}
