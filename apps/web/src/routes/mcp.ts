import type { FastifyPluginAsync } from 'fastify';
import { isAppError } from '@brain/errors';
import { authenticateBearer, handleMcpHttpRequest, wwwAuthenticate, type McpDeps } from '@brain/mcp';

/**
 * A JSON-RPC message, not a document: save_source takes at most 200,000 characters of text
 * (800 KB as UTF-8 at worst), so 1 MiB holds any valid call and refuses anything bigger (413).
 */
export const MCP_BODY_LIMIT = 1024 * 1024;

/**
 * POST /mcp: MCP over Streamable HTTP, stateless. Each request authenticates its bearer token
 * (401 with WWW-Authenticate otherwise) and gets its own server for that token's workspace.
 * No sessions and no server-initiated stream, so GET and DELETE are 405.
 */
export const mcpRoute: FastifyPluginAsync<{ mcp: McpDeps; publicUrl: string }> = async (app, { mcp, publicUrl }) => {
  const ownOrigin = new URL(publicUrl).origin;
  app.post('/mcp', { bodyLimit: MCP_BODY_LIMIT }, async (request, reply) => {
    // The MCP spec's DNS-rebinding rule: agents send no Origin; a browser page of another site does.
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== ownOrigin) {
      return reply.status(403).send({ error: 'MCP_ORIGIN_REFUSED', message: `Requests from ${origin.slice(0, 200)} are not accepted. Call /mcp from an MCP client, not a web page.` });
    }
    let caller;
    try {
      caller = await authenticateBearer(mcp.db, request.headers.authorization, mcp.tokenAudience);
    } catch (error) {
      if (!isAppError(error) || error.httpStatus !== 401) throw error;
      request.log.warn({ code: error.code }, 'mcp: refused a token');
      return reply.status(401).header('www-authenticate', wwwAuthenticate(error)).send({ error: error.code, message: error.toUserString() });
    }
    reply.hijack();
    try {
      await handleMcpHttpRequest(mcp, caller, request.raw, reply.raw, request.body);
    } catch (error) {
      request.log.error({ err: error }, 'mcp: request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
      }
    }
  });

  const notAllowed = { error: 'METHOD_NOT_ALLOWED', message: 'This MCP endpoint is stateless: send JSON-RPC requests with POST.' };
  app.get('/mcp', async (_request, reply) => reply.status(405).header('allow', 'POST').send(notAllowed));
  app.delete('/mcp', async (_request, reply) => reply.status(405).header('allow', 'POST').send(notAllowed));
};
