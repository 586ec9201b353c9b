import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawServer {
  url: string;
  port: number;
  hits: number;
  close(): Promise<void>;
}

/**
 * A plain node:http server for the cases the recording fake cannot express: bodies that drip,
 * stream without end, or are written in pieces. `host` may be '::1' for an IPv6 canary.
 */
export async function startRawServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  host = '127.0.0.1',
): Promise<RawServer> {
  const state = { hits: 0 };
  const server = http.createServer((req, res) => {
    state.hits += 1;
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    get hits() {
      return state.hits;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
