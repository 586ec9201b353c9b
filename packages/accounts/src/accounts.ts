import { isUuid, withService, type Database } from '@brain/db';
import type { Logger } from '@brain/observability';
import { BackgroundTasks } from './background-tasks.ts';
import { requestMagicLink, type MagicLinkContext, type MagicLinkRequest } from './claim/magic-links.ts';
import { describeClaimLink, redeemClaim, type ClaimLinkView, type ClaimResult } from './claim/redeem-claim.ts';
import type { LinkRedemptionInput } from './claim/verify-link.ts';
import type { InstalledGuild } from './install/discord-oauth.ts';
import { upsertInstalledWorkspace, type InstalledWorkspace } from './install/upsert-installed-workspace.ts';
import { redeemLogin, type LoginResult } from './login/redeem-login.ts';
import { requestLoginLinks } from './login/request-login-links.ts';
import type { MagicLinkMailer } from './mail/mailer.ts';
import { LIMITS } from './rate-limit/limits.ts';
import { createRateLimiter, type RateLimiter } from './rate-limit/rate-limiter.ts';
import {
  checkDashboardSession,
  endDashboardSession,
  endWorkspaceSessions,
  startDashboardSession,
  type DashboardSession,
  type SessionCheck,
} from './sessions/dashboard-sessions.ts';
import { describeLink, type LinkView } from './tokens/describe-link.ts';
import { getWorkspaceSummary, type WorkspaceSummary } from './workspace-summary.ts';

export interface AccountsOptions {
  db: Database;
  mailer: MagicLinkMailer;
  logger: Logger;
  publicUrl: string;
  limiter?: RateLimiter;
}

/** Who owns which workspace: the install, the claim by magic link, and the owner's login. */
export interface Accounts {
  readonly mailer: MagicLinkMailer;
  readonly limiter: RateLimiter;
  install(guild: InstalledGuild, ip: string): Promise<InstalledWorkspace>;
  workspace(workspaceId: string): Promise<WorkspaceSummary | undefined>;
  requestLink(request: MagicLinkRequest): Promise<void>;
  describeClaimLink(token: unknown): Promise<ClaimLinkView>;
  redeemClaim(input: LinkRedemptionInput): Promise<ClaimResult>;
  /** The dashboard's login form: one login link per workspace the address owns; the same answer for every address. */
  requestLoginLinks(request: { email: unknown; ip: string }): Promise<void>;
  describeLoginLink(token: unknown): Promise<LinkView>;
  redeemLogin(input: LinkRedemptionInput): Promise<LoginResult>;
  /** A dashboard session for an owner who just redeemed a login link; the token goes in the cookie. */
  startSession(owner: { workspaceId: string; email: string }): Promise<{ token: string; session: DashboardSession }>;
  checkSession(token: unknown): Promise<SessionCheck>;
  endSession(token: unknown): Promise<boolean>;
  endAllSessions(workspaceId: string): Promise<number>;
  /** Waits for links still being sent (shutdown, tests). */
  drain(): Promise<void>;
}

export function createAccounts(options: AccountsOptions): Accounts {
  const logger = options.logger.child({ component: 'accounts' });
  const background = new BackgroundTasks(logger);
  const limiter = options.limiter ?? createRateLimiter(options.db);
  const ctx: MagicLinkContext = { db: options.db, mailer: options.mailer, logger, publicUrl: options.publicUrl, limiter, background };
  return {
    mailer: options.mailer,
    limiter,
    async install(guild, ip) {
      await limiter.take(`install:ip:${ip}`, LIMITS.installsPerIp, 'installs from your network');
      const workspace = await withService(options.db, (tx) => upsertInstalledWorkspace(tx, guild));
      logger.info({ workspaceId: workspace.id, guildId: guild.id, created: workspace.created }, 'workspace installed');
      return workspace;
    },
    async workspace(workspaceId) {
      if (!isUuid(workspaceId)) return undefined;
      return withService(options.db, (tx) => getWorkspaceSummary(tx, workspaceId));
    },
    requestLink: (request) => requestMagicLink(ctx, request),
    describeClaimLink: (token) => describeClaimLink(ctx, token),
    redeemClaim: (input) => redeemClaim(ctx, input),
    requestLoginLinks: (request) => requestLoginLinks(ctx, request),
    describeLoginLink: (token) => describeLink(options.db, 'login', token),
    redeemLogin: (input) => redeemLogin(ctx, input),
    startSession: (owner) => startDashboardSession(options.db, owner),
    checkSession: (token) => checkDashboardSession(options.db, token),
    endSession: (token) => endDashboardSession(options.db, token),
    endAllSessions: (workspaceId) => endWorkspaceSessions(options.db, workspaceId),
    drain: () => background.drain(),
  };
}
