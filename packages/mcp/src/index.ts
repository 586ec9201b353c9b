export { createBrainMcpServer, SERVER_NAME, SERVER_VERSION } from './server.ts';
export { handleMcpHttpRequest } from './http.ts';
export { serveStdio } from './stdio.ts';
export { authenticateBearer, wwwAuthenticate } from './auth.ts';
export { scopeAudience, type TokenAudience } from './token-audience.ts';
export { SERVER_INSTRUCTIONS } from './instructions.ts';
export { DEFAULT_BUDGET_CHARS } from './budget.ts';
export { DESCRIPTION_PARTS } from './tool-description.ts';
export type { CallerResolver, McpCaller, McpDeps } from './deps.ts';
