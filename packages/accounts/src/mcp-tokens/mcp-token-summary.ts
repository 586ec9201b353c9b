/** What a token may read: 'public' (what @everyone can read, and workspace-wide sources) or a channel's audience. */
export type McpTokenScope = 'public' | `channel:${string}`;

export interface McpTokenSummary {
  id: string;
  name: string;
  createdBy: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  audienceScope: McpTokenScope;
}

export interface McpTokenRow extends Record<string, unknown> {
  id: string;
  name: string;
  created_by: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
  audience_scope: McpTokenScope;
}

export const MCP_TOKEN_COLUMNS = 'id::text, name, created_by, created_at, last_used_at, revoked_at, audience_scope';

export function toMcpTokenSummary(row: McpTokenRow): McpTokenSummary {
  return {
    id: row.id,
    name: row.name,
    createdBy: row.created_by,
    createdAt: new Date(row.created_at),
    lastUsedAt: row.last_used_at ? new Date(row.last_used_at) : null,
    revokedAt: row.revoked_at ? new Date(row.revoked_at) : null,
    audienceScope: row.audience_scope,
  };
}
