import { withService, type Database } from '@brain/db';
import { mcpTokenRevoked, mcpTokenUnknown } from './mcp-token-errors.ts';
import { hashMcpToken, looksLikeMcpToken } from './mcp-token-format.ts';
import type { McpTokenScope } from './mcp-token-summary.ts';

/** last_used_at is written at most this often per token: authenticating is otherwise a read. */
export const MCP_LAST_USED_RESOLUTION_SECONDS = 60;

export interface McpPrincipal {
  workspaceId: string;
  tokenId: string;
  /** The token's name, for logs and "saved by mcp:<name>". Never the token itself. */
  name: string;
  /** What the token may read: 'public' or 'channel:<id>'. */
  audienceScope: McpTokenScope;
}

/**
 * Who an MCP request acts for. Looks the token up by its hash (a lookup across workspaces, so as
 * service_role), refuses an unknown or malformed token with MCP_TOKEN_UNKNOWN and a revoked one
 * with MCP_TOKEN_REVOKED (both 401), and records last_used_at at most once a minute. The caller
 * then does everything as that workspace's tenant: withWorkspace(db, principal.workspaceId, …).
 */
export async function authenticateMcpToken(db: Database, rawToken: unknown): Promise<McpPrincipal> {
  const token = typeof rawToken === 'string' ? rawToken.trim() : rawToken;
  if (!looksLikeMcpToken(token)) throw mcpTokenUnknown();
  const [row] = await withService(db, (tx) =>
    tx.query<{ id: string; workspace_id: string; name: string; revoked_at: Date | string | null; audience_scope: McpTokenScope }>(
      `with found as (
         select id, workspace_id, name, revoked_at, last_used_at, audience_scope from public.mcp_tokens where token_hash = $1
       ), touched as (
         update public.mcp_tokens t set last_used_at = now()
         from found f
         where t.id = f.id and f.revoked_at is null
           and (f.last_used_at is null or f.last_used_at <= now() - make_interval(secs => $2))
         returning t.id
       )
       select id::text, workspace_id::text, name, revoked_at, audience_scope from found`,
      [hashMcpToken(token), MCP_LAST_USED_RESOLUTION_SECONDS],
    ),
  );
  if (!row) throw mcpTokenUnknown();
  if (row.revoked_at) throw mcpTokenRevoked(new Date(row.revoked_at));
  return { workspaceId: row.workspace_id, tokenId: row.id, name: row.name, audienceScope: row.audience_scope };
}
