import http, { type IncomingMessage } from 'node:http';
import type { DialTarget, Dialer } from './dial.ts';

export interface ExchangeRequest {
  url: URL;
  target: DialTarget;
  headers: Record<string, string>;
  dial: Dialer;
  signal: AbortSignal;
}

/**
 * One GET over a connection the dialer opened, resolving once the status line and headers are
 * in. The caller owns the response stream and must read or destroy it.
 *
 * `createConnection` without an agent means Node never opens a socket of its own: no global
 * agent, no keep-alive pool shared with other code, no proxy. `insecureHTTPParser` stays off.
 */
export function exchange(request: ExchangeRequest): Promise<IncomingMessage> {
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = http.request({
      method: 'GET',
      host: request.target.hostname,
      port: request.target.port,
      path: `${request.url.pathname}${request.url.search}`,
      setHost: false,
      headers: { ...request.headers, host: request.url.host, connection: 'close' },
      createConnection: () => request.dial(request.target),
      signal: request.signal,
      insecureHTTPParser: false,
      // Headers are 16 KB at most; a server cannot make us buffer a megabyte of them.
      maxHeaderSize: 16 * 1024,
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end();
  });
}
