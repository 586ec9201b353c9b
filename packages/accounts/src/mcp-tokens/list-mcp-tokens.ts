import { withWorkspace, type Database } from '@brain/db';
import { MCP_TOKEN_COLUMNS, toMcpTokenSummary, type McpTokenRow, type McpTokenSummary } from './mcp-token-summary.ts';

/** The workspace's tokens, live ones first, newest first; revoked ones stay listed (greyed) for the record. */
export async function listMcpTokens(db: Database, workspaceId: string, options: { limit?: number } = {}): Promise<McpTokenSummary[]> {
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 200);
  const rows = await withWorkspace(db, workspaceId, (tx) =>
    tx.query<McpTokenRow>(
      `select ${MCP_TOKEN_COLUMNS} from public.mcp_tokens
       order by revoked_at is not null, created_at desc, id
       limit $1`,
      [limit],
    ),
  );
  return rows.map(toMcpTokenSummary);
}
