import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import { lazyChild, type Logger } from '@brain/observability';
import type { BrainConfig } from '@brain/config';
import { clientFacingError } from './client-error.ts';
import type { WebDeps } from './deps.ts';
import { createReadiness, type Readiness } from './readiness.ts';
import { healthzRoute } from './routes/healthz.ts';
import { readyzRoute } from './routes/readyz.ts';
import { dashboardRoutes } from './routes/dashboard/index.ts';
import { interactionsRoute } from './routes/interactions.ts';
import { metricsRoute } from './routes/metrics.ts';
import { mcpRoute } from './routes/mcp.ts';
import { playgroundRoute } from './routes/playground/playground-route.ts';
import { onboardingRoutes } from './routes/onboarding/index.ts';
import { stripeWebhookRoute } from './routes/stripe-webhook.ts';
import { WARM_UP_HEADER } from './warm-up.ts';

/** A hop count as fastify applies one (its types omit numbers): hop 0 is our socket's peer. */
function trustProxyOption(setting: BrainConfig['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

/**
 * The web service as a Fastify instance that has not started listening: tests drive it with
 * inject(); server.ts adds the listening, the timeouts and the graceful close.
 */
export interface BuildOptions {
  /** What GET /readyz reports; without one the app is ready as soon as it is built (tests). */
  readiness?: Readiness;
  /** See interactionsRoute's warmUpToken. */
  warmUpToken?: string;
}

export async function buildApp(deps: WebDeps, options: BuildOptions = {}) {
  const app = Fastify({
    loggerInstance: deps.logger,
    bodyLimit: 1024 * 1024,
    // BRAIN_TRUST_PROXY: only the configured proxies may name the client (Render: one hop, so the
    // address Render appends, never the leftmost one a client can write). Rate limits key on it.
    trustProxy: trustProxyOption(deps.config.trustProxy),
    requestIdHeader: false,
    genReqId: () => crypto.randomUUID(),
    // Each request's logger is built at its first line: most requests (an acknowledgement at
    // LOG_LEVEL=warn) write none, and building one costs the thread that acknowledges.
    childLoggerFactory: (logger, bindings, options) => lazyChild(logger as Logger, bindings, options) as FastifyBaseLogger,
    // The warm-up's own requests are no one's traffic: 40 lines of "incoming request" at every start otherwise.
    logController: new LogController({ disableRequestLogging: (request) => options.warmUpToken !== undefined && request.headers[WARM_UP_HEADER] === options.warmUpToken }),
  });

  app.setErrorHandler((error, request, reply) => {
    const { appError, status } = clientFacingError(error);
    if (status >= 500) request.log.error({ err: error, code: appError.code }, 'request failed');
    else request.log.warn({ code: appError.code, message: appError.message }, 'request refused');
    // Never leak internals on a 5xx; a 4xx says what was wrong and what to do.
    const body =
      status >= 500
        ? { error: 'INTERNAL', message: 'Something went wrong on our side. Try again in a minute.' }
        : { error: appError.code, message: appError.toUserString() };
    void reply.status(status).send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    void reply.status(404).send({ error: 'NOT_FOUND', message: `No route for ${request.method} ${request.url}.` });
  });

  await app.register(healthzRoute, { deps });
  await app.register(readyzRoute, { deps, readiness: options.readiness ?? createReadiness('ready') });
  await app.register(interactionsRoute, { surface: deps.discord, metrics: deps.metrics?.interactions, warmUpToken: options.warmUpToken });
  if (deps.metrics) await app.register(metricsRoute, { metrics: deps.metrics, db: deps.db, token: deps.config.metricsToken, publicUrl: deps.config.publicUrl });
  if (deps.playground) await app.register(playgroundRoute, { playground: deps.playground, publicUrl: deps.config.publicUrl });
  if (deps.mcp) await app.register(mcpRoute, { mcp: deps.mcp, publicUrl: deps.config.publicUrl });
  if (deps.onboarding) {
    await app.register(onboardingRoutes, { deps: deps.onboarding, config: deps.config });
    await app.register(stripeWebhookRoute, { billing: deps.onboarding.billing });
    await app.register(dashboardRoutes, { deps: deps.onboarding, config: deps.config, db: deps.db });
  }
  return app;
}

export type WebApp = Awaited<ReturnType<typeof buildApp>>;
