import { withService, type Database } from '@brain/db';
import { getWorkspaceSummary, type WorkspaceSummary } from '../workspace-summary.ts';
import { inspectOneTimeToken, type TokenInfo, type TokenPurpose } from './one-time-token.ts';

export interface LinkView {
  token: TokenInfo;
  workspace?: WorkspaceSummary | undefined;
}

/** What a link's confirm page (GET) shows. Consumes nothing: mail scanners open links too. */
export async function describeLink(db: Database, purpose: TokenPurpose, token: unknown): Promise<LinkView> {
  return withService(db, async (tx) => {
    const info = await inspectOneTimeToken(tx, token, purpose);
    return { token: info, workspace: info.workspaceId ? await getWorkspaceSummary(tx, info.workspaceId) : undefined };
  });
}
