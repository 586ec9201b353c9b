import { buildApp, type WebApp } from './app.ts';
import type { WebDeps } from './deps.ts';

export interface WebServer {
  app: WebApp;
  url: string;
  close(): Promise<void>;
}

/** Listens on the configured port (0 picks a free one, for tests). */
export async function startWebServer(deps: WebDeps, options: { host?: string; port?: number } = {}): Promise<WebServer> {
  const app = await buildApp(deps);
  const address = await app.listen({ host: options.host ?? '0.0.0.0', port: options.port ?? deps.config.port });
  const port = new URL(address).port;
  return {
    app,
    url: `http://localhost:${port}`,
    // Stop accepting connections and finish in-flight requests, then let the work that follows
    // acknowledged interactions finish (answers, save receipts): SIGTERM never drops a reply.
    close: async () => {
      await app.close();
      await deps.discord?.close();
    },
  };
}
