import type { Command } from 'commander';
import { revokeMcpToken } from '@brain/accounts';
import { openConfiguredDatabase, readConfig } from '../context.ts';
import { print } from '../output.ts';
import { resolveWorkspace } from '../workspace.ts';

export function registerTokenRevoke(token: Command): void {
  token
    .command('revoke')
    .description('revoke an MCP token: its next request is refused (401)')
    .argument('<id>', 'the token id, from brain token list')
    .option('--workspace <slug>', 'workspace (default: local)')
    .action(async (id: string, options: { workspace?: string }) => {
      const config = readConfig();
      const db = await openConfiguredDatabase(config, 'token revoke');
      try {
        const workspace = await resolveWorkspace(db, options.workspace);
        const result = await revokeMcpToken(db, workspace.id, id);
        const when = result.token.revokedAt?.toISOString() ?? 'now';
        print.line(result.alreadyRevoked ? `Token "${result.token.name}" was already revoked (${when}).` : `Revoked token "${result.token.name}": requests with it are refused from now on.`);
      } finally {
        await db.close();
      }
    });
}
