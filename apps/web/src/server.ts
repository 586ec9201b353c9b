import { randomBytes } from 'node:crypto';
import { buildApp, type WebApp } from './app.ts';
import type { WebDeps } from './deps.ts';
import { createReadiness, type Readiness } from './readiness.ts';
import { warmUp } from './warm-up.ts';

export interface WebServer {
  app: WebApp;
  url: string;
  readiness: Readiness;
  /**
   * Stops accepting, finishes in-flight requests, then lets acknowledged interactions finish
   * within what is left of `graceMs` (default: the configured shutdown grace), counted from the call.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * Listens on the configured host (HOST) and port (0 picks a free one, for tests), then warms the
 * hot path up and only then resolves and turns GET /readyz to 200: a load balancer that checks
 * /readyz sends a new instance nothing it would answer slowly. /healthz answers from the start.
 */
export async function startWebServer(deps: WebDeps, options: { host?: string; port?: number } = {}): Promise<WebServer> {
  const readiness = createReadiness();
  const warmUpToken = randomBytes(16).toString('hex');
  const app = await buildApp(deps, { readiness, warmUpToken });
  const address = await app.listen({ host: options.host ?? deps.config.host, port: options.port ?? deps.config.port });
  const port = new URL(address).port;
  try {
    await warmUp(app, deps, { token: warmUpToken });
  } catch (error) {
    // Not ready is still serving: the real requests pay the cold start, as they did before.
    deps.logger.warn({ err: error }, 'warm-up failed; ready without it');
  }
  readiness.ready();
  return {
    app,
    url: `http://localhost:${port}`,
    readiness,
    // Stop accepting connections and finish in-flight requests, then let the work that follows
    // acknowledged interactions finish (answers, save receipts): SIGTERM never drops a reply.
    close: async (graceMs = deps.config.shutdownGraceMs) => {
      // One deadline from the signal: time spent finishing HTTP requests comes out of the answers' grace.
      const deadline = performance.now() + graceMs;
      readiness.draining();
      await app.close();
      await deps.discord?.close(Math.max(0, deadline - performance.now()));
    },
  };
}
