export { buildApp, type WebApp } from './app.ts';
export { startWebServer, type WebServer } from './server.ts';
export type { OnboardingDeps, WebDeps } from './deps.ts';
