import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '@brain/errors';
import { authenticateBearer, handleMcpHttpRequest, JSONRPC_INVALID_REQUEST, readJsonRpcMessage, wwwAuthenticate, type JsonRpcErrorReply, type McpDeps } from '@brain/mcp';
import { mcpOriginAllowed } from './mcp-origin.ts';
import { protectedResourceMetadata, resourceMetadataUrl } from './mcp-resource-metadata.ts';

/**
 * A JSON-RPC message, not a document: save_source takes at most 200,000 characters of text
 * (800 KB as UTF-8 at worst), so 1 MiB holds any valid call and refuses anything bigger (413).
 */
export const MCP_BODY_LIMIT = 1024 * 1024;

const ALLOW = 'POST';

/**
 * POST /mcp: MCP over Streamable HTTP, stateless. Each request authenticates its bearer token
 * (401 with WWW-Authenticate otherwise) and gets its own server for that token's workspace.
 * No sessions and no server-initiated stream, so every other method is 405. Whatever the body,
 * the answer is JSON-RPC: a body that is not one JSON-RPC message gets -32700 or -32600, the
 * same answer `brain mcp` gives the same bytes on stdio.
 */
export const mcpRoute: FastifyPluginAsync<{ mcp: McpDeps; publicUrl: string }> = async (app, { mcp, publicUrl }) => {
  // This plugin's own context: the body arrives as text whatever its content type, so a
  // malformed or empty body reaches readJsonRpcMessage instead of Fastify's JSON parser.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MCP_BODY_LIMIT }, (_request, body, done) => done(null, body));
  app.setErrorHandler((error: { statusCode?: number; code?: string }, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) request.log.error({ err: error }, 'mcp: request failed');
    if (status === 413) return sendJsonRpcError(reply, 413, { jsonrpc: '2.0', id: null, error: { code: JSONRPC_INVALID_REQUEST, message: `Invalid Request: the body is over the ${MCP_BODY_LIMIT}-byte limit. save_source takes at most 200,000 characters of text.` } });
    if (status < 500) return sendJsonRpcError(reply, status, { jsonrpc: '2.0', id: null, error: { code: JSONRPC_INVALID_REQUEST, message: 'Invalid Request: the body could not be read.' } });
    return sendJsonRpcError(reply, 500, { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error' } });
  });

  app.post('/mcp', async (request, reply) => {
    // The MCP spec's DNS-rebinding rule: agents send no Origin; a browser page of another site does.
    const origin = request.headers.origin;
    if (origin !== undefined && !mcpOriginAllowed(origin, publicUrl, request.socket.localPort)) {
      return reply.status(403).send({ error: 'MCP_ORIGIN_REFUSED', message: `Requests from ${origin.slice(0, 200)} are not accepted. Call /mcp from an MCP client, not a web page.` });
    }
    let caller;
    try {
      caller = await authenticateBearer(mcp.db, request.headers.authorization, mcp.tokenAudience);
    } catch (error) {
      if (!isAppError(error) || error.httpStatus !== 401) throw error;
      request.log.warn({ code: error.code }, 'mcp: refused a token');
      return reply
        .status(401)
        .header('www-authenticate', wwwAuthenticate(error, resourceMetadataUrl(publicUrl)))
        .send({ error: error.code, message: error.toUserString() });
    }
    const read = readJsonRpcMessage(typeof request.body === 'string' ? request.body : '');
    if (!read.ok) return sendJsonRpcError(reply, 400, read.reply);
    reply.hijack();
    try {
      await handleMcpHttpRequest(mcp, caller, request.raw, reply.raw, read.message);
    } catch (error) {
      request.log.error({ err: error }, 'mcp: request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
      }
    }
  });

  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.status(405).header('allow', ALLOW).send({ error: 'METHOD_NOT_ALLOWED', message: 'This MCP endpoint is stateless: send JSON-RPC requests with POST.' });
  app.route({ method: ['GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'], url: '/mcp', handler: notAllowed });

  // RFC 9728: where a client that got our 401 learns how to get a token. No authorization
  // server: tokens are static, made by /mcp-token in Discord or `brain token create`.
  const metadata = async () => protectedResourceMetadata(publicUrl);
  app.get('/.well-known/oauth-protected-resource', metadata);
  app.get('/.well-known/oauth-protected-resource/mcp', metadata);
};

function sendJsonRpcError(reply: FastifyReply, status: number, body: JsonRpcErrorReply): FastifyReply {
  return reply.status(status).header('content-type', 'application/json').send(body);
}
