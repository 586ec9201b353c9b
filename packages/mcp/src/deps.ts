import type { ErrorCode } from '@brain/errors';
import type { AudienceFilter, Database } from '@brain/db';
import type { Embedder } from '@brain/embeddings';
import type { SaveOptions } from '@brain/ingest';
import type { Logger } from '@brain/observability';
import type { TokenAudience } from './token-audience.ts';

/**
 * Billing's gate, the one Discord's /save and /ask go through: allowed (and counted), or the
 * message to show, with the checkout link in it.
 */
export type EntitlementGate = (
  workspaceId: string,
  action: 'save' | 'ask',
) => Promise<{ allowed: true } | { allowed: false; message: string; code?: ErrorCode | undefined }>;

/** What the MCP server needs, built once by the composition root (apps/cli). */
export interface McpDeps {
  db: Database;
  /** The embedder ingestion uses: a query embedded by another model searches noise. */
  embedder: Embedder;
  logger: Logger;
  /** The same options every surface passes to saveSource (the URL check, the save rate limits). */
  saveOptions: SaveOptions;
  /** save_source is metered as a save and search_brain as an ask, like Discord's /save and /ask. */
  checkEntitlement: EntitlementGate;
  /** Characters a tool result may carry before it is cut (default DEFAULT_BUDGET_CHARS). */
  budgetChars?: number | undefined;
  /** A token's audience from its scope (with the guild's facts when the bot token can read them); default scopeAudience. */
  tokenAudience?: TokenAudience | undefined;
}

/** Who the tools act for: one workspace, named after the token (or "local" in embedded mode). */
export interface McpCaller {
  workspaceId: string;
  /** Recorded as "mcp:<name>" on what this caller saves. Never the token itself. */
  name: string;
  /**
   * What this caller may read: a token's scope ('public': workspace-wide sources, plus channels
   * everyone in the server can read when the composition root can tell; or one channel's
   * audience), or everything for the local operator.
   */
  audience: AudienceFilter;
}

/**
 * Resolves the caller for each tool call, so a token revoked while a stdio session is open stops
 * working at the next call; over HTTP it is the principal authenticated for that request.
 */
export type CallerResolver = () => Promise<McpCaller>;
