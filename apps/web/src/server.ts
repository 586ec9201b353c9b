import { buildApp, type WebApp } from './app.ts';
import type { WebDeps } from './deps.ts';

export interface WebServer {
  app: WebApp;
  url: string;
  /**
   * Stops accepting, finishes in-flight requests, then lets acknowledged interactions finish
   * within what is left of `graceMs` (default: the configured shutdown grace), counted from the call.
   */
  close(graceMs?: number): Promise<void>;
}

/** Listens on the configured host (HOST) and port (0 picks a free one, for tests). */
export async function startWebServer(deps: WebDeps, options: { host?: string; port?: number } = {}): Promise<WebServer> {
  const app = await buildApp(deps);
  const address = await app.listen({ host: options.host ?? deps.config.host, port: options.port ?? deps.config.port });
  const port = new URL(address).port;
  return {
    app,
    url: `http://localhost:${port}`,
    // Stop accepting connections and finish in-flight requests, then let the work that follows
    // acknowledged interactions finish (answers, save receipts): SIGTERM never drops a reply.
    close: async (graceMs = deps.config.shutdownGraceMs) => {
      // One deadline from the signal: time spent finishing HTTP requests comes out of the answers' grace.
      const deadline = performance.now() + graceMs;
      await app.close();
      await deps.discord?.close(Math.max(0, deadline - performance.now()));
    },
  };
}
