import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { JSONRPC_INVALID_REQUEST } from './protocol-error.ts';
import { readJsonRpcMessage, type JsonRpcErrorReply } from './read-message.ts';

/** The HTTP body limit, so a message refused on one transport is refused on the other. */
export const STDIO_MAX_LINE_BYTES = 1024 * 1024;

/**
 * MCP's stdio transport (one JSON-RPC message per line), answering what the SDK's
 * StdioServerTransport drops without a word: a line that is not JSON gets a -32700 reply, a
 * batch or a non-JSON-RPC value a -32600 reply, exactly as POST /mcp answers the same bytes.
 * Blank lines are skipped: they carry no message to answer.
 */
export class LineStdioTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  private buffer = '';
  private overflowing = false;
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly stdin: NodeJS.ReadableStream,
    private readonly stdout: NodeJS.WritableStream,
  ) {}

  private readonly onData = (chunk: Buffer | string) => {
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    for (let end = this.buffer.indexOf('\n'); end >= 0; end = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 1);
      if (this.overflowing) this.overflowing = false;
      else this.receive(line);
    }
    if (!this.overflowing && Buffer.byteLength(this.buffer) > STDIO_MAX_LINE_BYTES) {
      // Answer now, then drop the rest of this line when it ends.
      this.buffer = '';
      this.overflowing = true;
      void this.reply({ jsonrpc: '2.0', id: null, error: { code: JSONRPC_INVALID_REQUEST, message: `Invalid Request: a message is limited to ${STDIO_MAX_LINE_BYTES} bytes.` } });
    }
  };

  private readonly onError = (error: Error) => this.onerror?.(error);

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.buffer = '';
    this.onclose?.();
  }

  private receive(line: string): void {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text.trim() === '') return;
    const read = readJsonRpcMessage(text);
    if (read.ok) this.onmessage?.(read.message);
    else void this.reply(read.reply);
  }

  private reply(reply: JsonRpcErrorReply): Promise<void> {
    return this.write(`${JSON.stringify(reply)}\n`);
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(text)) resolve();
      else this.stdout.once('drain', () => resolve());
    });
  }
}
