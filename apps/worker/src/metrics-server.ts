import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '@brain/errors';
import { bearerTokenCheck, type BrainMetrics, type DatabaseSnapshot, type Logger } from '@brain/observability';

export interface MetricsServerOptions {
  /** BRAIN_METRICS_PORT; 0 picks a free one. */
  port: number;
  host?: string;
  metrics: BrainMetrics;
  /** The database side of a scrape: queue depth, oldest job, failures by code, retrieval latency. */
  snapshot: () => Promise<DatabaseSnapshot>;
  /** GET /healthz: resolves true when the database answers. */
  healthy: () => Promise<boolean>;
  /** BRAIN_METRICS_TOKEN: when set, GET /metrics requires `Authorization: Bearer <token>`. */
  token: string | undefined;
  logger: Logger;
}

export interface MetricsServer {
  /** e.g. http://localhost:9464 */
  url: string;
  close(): Promise<void>;
}

/**
 * GET /metrics (Prometheus text) and GET /healthz for a worker running as its own process, which
 * has no web server to mount them on. Plain node:http: two read-only routes need no framework.
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const authorized = bearerTokenCheck(options.token);
  const log = options.logger.child({ component: 'metrics-server' });

  const respond = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://worker').pathname;
    const send = (status: number, contentType: string, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': contentType, ...headers });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const json = (status: number, body: unknown, headers?: Record<string, string>) => send(status, 'application/json; charset=utf-8', JSON.stringify(body), headers);
    if (path !== '/metrics' && path !== '/healthz') return json(404, { error: 'NOT_FOUND', message: 'This port serves GET /metrics and GET /healthz.' });
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(405, { error: 'METHOD_NOT_ALLOWED', message: `${path} answers GET.` }, { allow: 'GET, HEAD' });
    if (path === '/healthz') {
      return (await options.healthy()) ? json(200, { status: 'ok' }) : json(503, { status: 'unavailable', reason: 'database unreachable' });
    }
    if (!authorized(req.headers.authorization)) {
      return json(401, { error: 'UNAUTHORIZED', message: 'GET /metrics needs Authorization: Bearer <BRAIN_METRICS_TOKEN>.' }, { 'www-authenticate': 'Bearer' });
    }
    const body = await options.metrics.render(options.snapshot, (error) => log.warn({ err: error }, 'metrics: the database snapshot failed; serving the last values'));
    send(200, options.metrics.contentType, body);
  };

  const server = http.createServer((req, res) => {
    respond(req, res).catch((error: unknown) => {
      log.error({ err: error, path: req.url }, 'metrics request failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: 'INTERNAL', message: 'The metrics request failed; see the worker logs.' }));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new AppError({
              code: 'METRICS_PORT_IN_USE',
              message: `BRAIN_METRICS_PORT ${options.port} is already in use.`,
              nextStep: 'Pick a free port for BRAIN_METRICS_PORT (or unset it), then start the worker again.',
            })
          : error,
      );
    });
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  log.info({ port }, 'serving /metrics and /healthz');

  return {
    url: `http://localhost:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A scraper's keep-alive connection must not hold the shutdown open.
        server.closeAllConnections();
      }),
  };
}
