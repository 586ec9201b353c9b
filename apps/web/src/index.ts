import type {} from './error-codes.ts';
export { buildApp, type WebApp } from './app.ts';
export { startWebServer, type WebServer } from './server.ts';
export type { OnboardingDeps, WebDeps } from './deps.ts';
export type { PlaygroundDeps } from './routes/playground/playground-route.ts';
export { INTERACTION_BODY_LIMIT } from './routes/interactions.ts';
export { MCP_BODY_LIMIT } from './routes/mcp.ts';
