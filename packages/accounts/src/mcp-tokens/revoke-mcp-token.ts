import { isUuid, withWorkspace, type Database } from '@brain/db';
import { mcpTokenNotFound } from './mcp-token-errors.ts';
import { MCP_TOKEN_COLUMNS, toMcpTokenSummary, type McpTokenRow, type McpTokenSummary } from './mcp-token-summary.ts';

/**
 * Revokes a token of this workspace: the next request made with it is refused. Revoking twice
 * is harmless (the first time is kept). A token id of another workspace is MCP_TOKEN_NOT_FOUND,
 * the same as one that never existed: RLS hides it.
 */
export async function revokeMcpToken(db: Database, workspaceId: string, tokenId: string): Promise<{ token: McpTokenSummary; alreadyRevoked: boolean }> {
  if (!isUuid(tokenId)) throw mcpTokenNotFound(tokenId);
  return withWorkspace(db, workspaceId, async (tx) => {
    const [revoked] = await tx.query<McpTokenRow>(
      `update public.mcp_tokens set revoked_at = now() where id = $1 and revoked_at is null returning ${MCP_TOKEN_COLUMNS}`,
      [tokenId],
    );
    if (revoked) return { token: toMcpTokenSummary(revoked), alreadyRevoked: false };
    const [existing] = await tx.query<McpTokenRow>(`select ${MCP_TOKEN_COLUMNS} from public.mcp_tokens where id = $1`, [tokenId]);
    if (!existing) throw mcpTokenNotFound(tokenId);
    return { token: toMcpTokenSummary(existing), alreadyRevoked: true };
  });
}
