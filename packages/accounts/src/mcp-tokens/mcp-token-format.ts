import { createHash, randomBytes } from 'node:crypto';

/** Every MCP token starts with this, so secret scanners and people can tell what leaked. */
export const MCP_TOKEN_PREFIX = 'brain_mcp_';

const SHAPE = /^brain_mcp_[A-Za-z0-9_-]{43}$/;

/** 32 bytes from the CSPRNG, base64url, behind the prefix. */
export function generateMcpToken(): string {
  return `${MCP_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** What the database keeps. A plain SHA-256 suffices: the token has 256 bits of entropy. */
export function hashMcpToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function looksLikeMcpToken(value: unknown): value is string {
  return typeof value === 'string' && SHAPE.test(value);
}
