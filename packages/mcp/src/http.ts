import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpCaller, McpDeps } from './deps.ts';
import { createBrainMcpServer } from './server.ts';

/**
 * One stateless Streamable HTTP exchange: a fresh server and transport for this request only
 * (no session id, nothing shared between callers), answered as JSON. The caller was
 * authenticated for this request; `body` is the already-parsed JSON-RPC message.
 */
export async function handleMcpHttpRequest(deps: McpDeps, caller: McpCaller, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
  const server = createBrainMcpServer(deps, async () => caller);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}
