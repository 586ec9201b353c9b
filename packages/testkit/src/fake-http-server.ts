import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body parsed as JSON, or as a form, when it is one; otherwise undefined. */
  json: unknown;
  form: URLSearchParams | undefined;
}

export interface FakeResponse {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
  /**
   * Close the connection without answering, as a server does to a keep-alive connection it timed
   * out just as the next request arrived (the client sees "other side closed").
   */
  dropConnection?: boolean;
}

export type FakeHandler = (req: RecordedRequest) => FakeResponse | Promise<FakeResponse>;

export interface FakeHttpServer {
  /** e.g. http://127.0.0.1:43121 */
  url: string;
  port: number;
  /** Every request received, in order (the last `keepRequests` of them when that is set). */
  requests: RecordedRequest[];
  /** Adds or replaces the handler for "METHOD /path" (":param" segments match anything). */
  on(method: string, path: string, handler: FakeHandler): void;
  close(): Promise<void>;
}

/**
 * A real HTTP server on loopback for tests of code that talks to the outside world. Unmatched
 * requests get a 404 with a JSON body naming the route, so a missing fake fails loudly.
 */
export interface FakeHttpServerOptions {
  /**
   * How many requests `requests` keeps, the latest (default all: a test reads them). The
   * playground runs its fakes for as long as `brain start` runs and keeps none.
   */
  keepRequests?: number;
}

export async function startFakeHttpServer(name: string, options: FakeHttpServerOptions = {}): Promise<FakeHttpServer> {
  const keep = options.keepRequests ?? Number.POSITIVE_INFINITY;
  const routes: { method: string; pattern: RegExp; handler: FakeHandler }[] = [];
  const requests: RecordedRequest[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://fake');
      const type = String(req.headers['content-type'] ?? '');
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        json: type.includes('json') && body.length > 0 ? safeJson(body) : undefined,
        form: type.includes('x-www-form-urlencoded') ? new URLSearchParams(body.toString()) : undefined,
      };
      remember(requests, recorded, keep);
      const route = routes.find((r) => r.method === recorded.method && r.pattern.test(recorded.path));
      const respond = (out: FakeResponse) => {
        if (out.dropConnection) {
          req.socket.destroy();
          return;
        }
        const status = out.status ?? 200;
        const headers = { ...out.headers };
        let payload: string | Buffer = '';
        if (Buffer.isBuffer(out.body) || typeof out.body === 'string') payload = out.body;
        else if (out.body !== undefined) {
          payload = JSON.stringify(out.body);
          headers['content-type'] ??= 'application/json';
        }
        res.writeHead(status, headers);
        res.end(payload);
      };
      if (!route) {
        respond({ status: 404, body: { error: `${name} fake has no route for ${recorded.method} ${recorded.path}` } });
        return;
      }
      Promise.resolve(route.handler(recorded))
        .then(async (out) => {
          if (out.delayMs) await new Promise((r) => setTimeout(r, out.delayMs));
          respond(out);
        })
        .catch((error: unknown) => respond({ status: 500, body: { error: String(error) } }));
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    on(method, path, handler) {
      const pattern = new RegExp('^' + path.replace(/:[^/]+/g, '[^/]+') + '$');
      const existing = routes.findIndex((r) => r.method === method && r.pattern.source === pattern.source);
      if (existing >= 0) routes.splice(existing, 1);
      routes.push({ method, pattern, handler });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function safeJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString());
  } catch {
    return undefined;
  }
}

/** Appends, dropping the oldest beyond `keep`. */
export function remember<T>(list: T[], item: T, keep: number): void {
  if (keep <= 0) return;
  list.push(item);
  if (list.length > keep) list.splice(0, list.length - keep);
}
