import { createRateLimiter } from '@brain/accounts';
import type { BrainConfig } from '@brain/config';
import type { Database } from '@brain/db';
import type { SaveRateLimits } from '@brain/ingest';

/** The limits Discord and MCP saves go through (BRAIN_SAVES_PER_MEMBER, BRAIN_SAVES_PER_WORKSPACE), counted in the database so every instance shares them. */
export function buildSaveRateLimits(config: BrainConfig, db: Database): SaveRateLimits {
  return { counter: createRateLimiter(db), perMember: config.saveLimits.perMember, perWorkspace: config.saveLimits.perWorkspace };
}
