import type {} from './error-codes.ts';
export { createAccounts, type Accounts, type AccountsOptions } from './accounts.ts';
export { BackgroundTasks } from './background-tasks.ts';
export { normalizeEmail, maskEmail } from './email-address.ts';
export { MAGIC_LINK_PATHS, requestMagicLink, type MagicLinkContext, type MagicLinkRequest } from './claim/magic-links.ts';
export { describeClaimLink, redeemClaim, type ClaimFailure, type ClaimLinkView, type ClaimResult } from './claim/redeem-claim.ts';
export type { LinkRedemptionInput } from './claim/verify-link.ts';
export { redeemLogin, type LoginResult } from './login/redeem-login.ts';
export { requestLoginLinks } from './login/request-login-links.ts';
export {
  SESSION_ABSOLUTE_SECONDS,
  SESSION_IDLE_SECONDS,
  checkDashboardSession,
  endDashboardSession,
  endWorkspaceSessions,
  startDashboardSession,
  type DashboardSession,
  type SessionCheck,
  type SessionRefusal,
} from './sessions/dashboard-sessions.ts';
export { describeLink, type LinkView } from './tokens/describe-link.ts';
export { MCP_TOKEN_PREFIX, hashMcpToken, looksLikeMcpToken } from './mcp-tokens/mcp-token-format.ts';
export { MCP_TOKEN_NAME_MAX, MCP_TOKENS_PER_WORKSPACE } from './mcp-tokens/mcp-token-errors.ts';
export type { McpTokenScope, McpTokenSummary } from './mcp-tokens/mcp-token-summary.ts';
export { createMcpToken } from './mcp-tokens/create-mcp-token.ts';
export { listMcpTokens } from './mcp-tokens/list-mcp-tokens.ts';
export { revokeMcpToken } from './mcp-tokens/revoke-mcp-token.ts';
export { authenticateMcpToken, MCP_LAST_USED_RESOLUTION_SECONDS, type McpPrincipal } from './mcp-tokens/authenticate-mcp-token.ts';
export {
  BOT_PERMISSIONS,
  INSTALL_SCOPES,
  buildInstallUrl,
  exchangeInstallCode,
  type ExchangeInstallCodeInput,
  type InstallUrlInput,
  type InstalledGuild,
} from './install/discord-oauth.ts';
export { upsertInstalledWorkspace, type InstalledWorkspace } from './install/upsert-installed-workspace.ts';
export type { MagicLinkMailer, MagicLinkMessage, MailboxProof } from './mail/mailer.ts';
export { DevOutboxMailer, type OutboxEntry } from './mail/dev-outbox-mailer.ts';
export { SupabaseMailer, type SupabaseMailerOptions } from './mail/supabase-mailer.ts';
export { createRateLimiter, type RateLimit, type RateLimitDecision, type RateLimiter } from './rate-limit/rate-limiter.ts';
export { LIMITS } from './rate-limit/limits.ts';
export { Signer } from './signing/signer.ts';
export {
  ONE_TIME_TOKEN_TTL_SECONDS,
  generateToken,
  hashToken,
  inspectOneTimeToken,
  issueOneTimeToken,
  looksLikeToken,
  redeemOneTimeToken,
  type TokenInfo,
  type TokenPurpose,
  type TokenState,
} from './tokens/one-time-token.ts';
export { getWorkspaceSummary, type PlanStatus, type WorkspaceSummary } from './workspace-summary.ts';
