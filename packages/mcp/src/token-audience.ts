import type { McpPrincipal } from '@brain/accounts';
import { audienceKeys, type AudienceFilter } from '@brain/db';

/** A token's audience, from its scope; the composition root may widen 'public' with guild facts. */
export type TokenAudience = (principal: Pick<McpPrincipal, 'workspaceId' | 'audienceScope'>) => Promise<AudienceFilter>;

/**
 * Without the guild's roles and overwrites: a 'public' token reads workspace-wide sources, a
 * channel token those and its channel's own. Never wider than what the scope names.
 */
export const scopeAudience: TokenAudience = async (principal) =>
  audienceKeys(principal.audienceScope === 'public' ? ['workspace'] : ['workspace', principal.audienceScope]);
