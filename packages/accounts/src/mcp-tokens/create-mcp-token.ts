import { sqlState, SqlState, withWorkspace, type Database } from '@brain/db';
import { mcpTokenLimit, mcpTokenNameInvalid, mcpTokenScopeInvalid, mcpTokenNameTaken, MCP_TOKEN_NAME_MAX, MCP_TOKENS_PER_WORKSPACE } from './mcp-token-errors.ts';
import { generateMcpToken, hashMcpToken } from './mcp-token-format.ts';
import { toMcpTokenSummary, type McpTokenRow, type McpTokenScope, type McpTokenSummary } from './mcp-token-summary.ts';

/**
 * Creates a token for the workspace and returns it, raw, this once: only its hash is stored, so
 * it can never be shown again. As the workspace's tenant, under RLS; the workspace row is locked
 * so two concurrent creations cannot both take the last slot under the cap.
 */
export async function createMcpToken(
  db: Database,
  workspaceId: string,
  name: unknown,
  createdBy: string,
  /** What the token may read: 'public' (the default) or 'channel:<id>', whose audience it takes. */
  audienceScope: McpTokenScope = 'public',
): Promise<{ token: string; summary: McpTokenSummary }> {
  if (audienceScope !== 'public' && !/^channel:[0-9]{1,20}$/.test(audienceScope)) throw mcpTokenScopeInvalid(audienceScope);
  const cleanName = typeof name === 'string' ? name.trim().replace(/\s+/g, ' ') : '';
  if (cleanName.length === 0 || cleanName.length > MCP_TOKEN_NAME_MAX) throw mcpTokenNameInvalid();
  const token = generateMcpToken();
  try {
    const row = await withWorkspace(db, workspaceId, async (tx) => {
      await tx.query('select id from public.workspaces where id = $1 for update', [workspaceId]);
      const [live] = await tx.query<{ n: number }>('select count(*)::int as n from public.mcp_tokens where revoked_at is null');
      if ((live?.n ?? 0) >= MCP_TOKENS_PER_WORKSPACE) throw mcpTokenLimit();
      const [inserted] = await tx.query<McpTokenRow>(
        `insert into public.mcp_tokens (workspace_id, name, token_hash, created_by, audience_scope) values ($1, $2, $3, $4, $5)
         returning id::text, name, created_by, created_at, last_used_at, revoked_at, audience_scope`,
        [workspaceId, cleanName, hashMcpToken(token), createdBy.slice(0, 254), audienceScope],
      );
      return inserted;
    });
    if (!row) throw new Error('insert into mcp_tokens returned no row');
    return { token, summary: toMcpTokenSummary(row) };
  } catch (error) {
    if (sqlState(error) === SqlState.uniqueViolation) throw mcpTokenNameTaken(cleanName);
    throw error;
  }
}
