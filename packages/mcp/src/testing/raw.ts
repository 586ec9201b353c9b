import { PassThrough } from 'node:stream';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpCaller, McpDeps } from '../deps.ts';
import { createBrainMcpServer } from '../server.ts';
import { serveStdio } from '../stdio.ts';

export interface RawReply {
  jsonrpc: '2.0';
  id: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-test', version: '1.0.0' } },
} as const;

/** A server for `caller` driven with raw JSON-RPC messages in process, as a client that skips the SDK would. */
export async function rawSession(deps: McpDeps, caller: McpCaller): Promise<{ send: (message: unknown) => Promise<RawReply>; close: () => Promise<void> }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createBrainMcpServer(deps, async () => caller);
  const waiting = new Map<string | number, (reply: RawReply) => void>();
  clientSide.onmessage = (message) => {
    const reply = message as RawReply;
    if (reply.id !== null && reply.id !== undefined) waiting.get(reply.id)?.(reply);
  };
  await server.connect(serverSide);
  await clientSide.start();
  const send = (message: unknown) =>
    new Promise<RawReply>((resolve) => {
      waiting.set((message as { id: string | number }).id, resolve);
      void clientSide.send(message as JSONRPCMessage);
    });
  await send(INITIALIZE);
  await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { send, close: () => server.close() };
}

/** serveStdio on in-memory streams: write lines, read the reply lines. */
export function stdioSession(deps: McpDeps, caller: McpCaller): { writeLine: (line: string) => void; nextReply: () => Promise<RawReply>; end: () => Promise<void> } {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const served = serveStdio(deps, async () => caller, { stdin, stdout });
  const replies: RawReply[] = [];
  const waiters: ((reply: RawReply) => void)[] = [];
  let pending = '';
  stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      const reply = JSON.parse(pending.slice(0, end)) as RawReply;
      pending = pending.slice(end + 1);
      const waiter = waiters.shift();
      if (waiter) waiter(reply);
      else replies.push(reply);
    }
  });
  return {
    writeLine: (line) => stdin.write(`${line}\n`),
    nextReply: () => {
      const ready = replies.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiters.push(resolve));
    },
    end: async () => {
      stdin.end();
      await served;
    },
  };
}
