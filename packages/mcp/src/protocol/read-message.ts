import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { JSONRPC_INVALID_REQUEST, JSONRPC_PARSE_ERROR } from './protocol-error.ts';

export interface JsonRpcErrorReply {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

export type ReadMessage = { ok: true; message: JSONRPCMessage } | { ok: false; reply: JsonRpcErrorReply };

/**
 * One JSON-RPC message from raw text (an HTTP body or a stdio line), or the JSON-RPC error to
 * answer instead. The same rules on both transports, so a client sees the same answer for the
 * same bytes. None of these errors is worth retrying unchanged, so none says to.
 */
export function readJsonRpcMessage(raw: string): ReadMessage {
  if (raw.trim() === '') return refuse(null, JSONRPC_PARSE_ERROR, 'Parse error: the message is empty. Send one JSON-RPC 2.0 request as JSON.');
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return refuse(null, JSONRPC_PARSE_ERROR, 'Parse error: the message is not valid JSON. Send one JSON-RPC 2.0 request as JSON.');
  }
  // MCP 2025-06-18 removed JSON-RPC batching; one explicit error beats a silent drop.
  if (Array.isArray(value)) {
    return refuse(null, JSONRPC_INVALID_REQUEST, 'Invalid Request: batches are not supported (MCP removed JSON-RPC batching in 2025-06-18). Send each request on its own.');
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (!parsed.success) {
    return refuse(idOf(value), JSONRPC_INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message. A request needs "jsonrpc": "2.0", a string "method", and an "id" (string or number) unless it is a notification.');
  }
  return { ok: true, message: parsed.data };
}

function refuse(id: string | number | null, code: number, message: string): ReadMessage {
  return { ok: false, reply: { jsonrpc: '2.0', id, error: { code, message } } };
}

/** JSON-RPC: the error answers the request's id when it could be read, null otherwise. */
function idOf(value: unknown): string | number | null {
  if (value === null || typeof value !== 'object') return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}
