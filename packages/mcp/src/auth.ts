import { authenticateMcpToken } from '@brain/accounts';
import type { Database } from '@brain/db';
import { AppError } from '@brain/errors';
import type { McpCaller } from './deps.ts';
import { scopeAudience, type TokenAudience } from './token-audience.ts';

/**
 * The caller behind an `Authorization: Bearer <token>` header, or a 401 AppError: no header
 * (MCP_TOKEN_MISSING), or a token that is unknown or revoked (from @brain/accounts). Every call
 * records the token's last use (at most once a minute).
 */
export async function authenticateBearer(db: Database, authorization: string | undefined, audienceOf: TokenAudience = scopeAudience): Promise<McpCaller> {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  if (!match?.[1]) {
    throw new AppError({
      code: 'MCP_TOKEN_MISSING',
      message: 'The MCP request carries no bearer token.',
      userMessage: 'This MCP endpoint needs a token.',
      nextStep: 'Send the header "Authorization: Bearer <token>"; create a token with `brain token create` or /mcp-token in Discord.',
      httpStatus: 401,
    });
  }
  const principal = await authenticateMcpToken(db, match[1]);
  return { workspaceId: principal.workspaceId, name: principal.name, audience: await audienceOf(principal) };
}

/**
 * RFC 6750 §3: what a 401 tells the client about the bearer scheme; with `resourceMetadata`,
 * RFC 9728 §5.1's link to the metadata that says where tokens come from (MCP clients look for it).
 */
export function wwwAuthenticate(error: AppError, resourceMetadata?: string): string {
  const params = ['realm="company-brain"'];
  if (resourceMetadata) params.push(`resource_metadata="${resourceMetadata.replace(/["\\]/g, '')}"`);
  if (error.code !== 'MCP_TOKEN_MISSING') params.push('error="invalid_token"', `error_description="${error.userMessage.replace(/["\\]/g, '')}"`);
  return `Bearer ${params.join(', ')}`;
}
