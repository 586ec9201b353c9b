/** JSON-RPC 2.0 error codes (https://www.jsonrpc.org/specification#error_object). */
export const JSONRPC_PARSE_ERROR = -32700;
export const JSONRPC_INVALID_REQUEST = -32600;
export const JSONRPC_METHOD_NOT_FOUND = -32601;
export const JSONRPC_INVALID_PARAMS = -32602;

/**
 * An error the SDK's Protocol answers as a JSON-RPC error with this code and exactly this
 * message. (The SDK's own McpError prefixes "MCP error <code>:" to every message.)
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}
