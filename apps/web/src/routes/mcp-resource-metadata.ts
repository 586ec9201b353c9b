/** The protected resource this server is: its /mcp endpoint under PUBLIC_URL. */
export function mcpResource(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/mcp`;
}

/** RFC 9728 §3.1: the metadata of resource https://host/mcp lives at /.well-known/oauth-protected-resource/mcp. */
export function resourceMetadataUrl(publicUrl: string): string {
  const base = new URL(publicUrl);
  return `${base.origin}/.well-known/oauth-protected-resource${new URL(mcpResource(publicUrl)).pathname}`;
}

/**
 * RFC 9728 Protected Resource Metadata, with no `authorization_servers`: there is no OAuth
 * flow to start. A token is a static bearer token, created in Discord with /mcp-token or with
 * `brain token create`, and sent as `Authorization: Bearer <token>` (each client's flag for a
 * static header is in docs/mcp.md).
 */
export function protectedResourceMetadata(publicUrl: string): Record<string, unknown> {
  return {
    resource: mcpResource(publicUrl),
    resource_name: 'Company Brain MCP',
    bearer_methods_supported: ['header'],
    brain_token_instructions: 'Create a token with /mcp-token in Discord or `brain token create --workspace <slug> --name "<client>"`, then send "Authorization: Bearer <token>". There is no OAuth flow.',
  };
}
