import type { Command } from 'commander';
import { listMcpTokens } from '@brain/accounts';
import { openConfiguredDatabase, readConfig } from '../context.ts';
import { print } from '../output.ts';
import { resolveWorkspace } from '../workspace.ts';

export function registerTokenList(token: Command): void {
  token
    .command('list')
    .description('list a workspace\'s MCP tokens (never the tokens themselves): live ones first, with their last use')
    .option('--workspace <slug>', 'workspace (default: local)')
    .option('--json', 'print JSON')
    .action(async (options: { workspace?: string; json?: boolean }) => {
      const config = readConfig();
      const db = await openConfiguredDatabase(config, 'token list');
      try {
        const workspace = await resolveWorkspace(db, options.workspace);
        const tokens = await listMcpTokens(db, workspace.id, { limit: 200 });
        if (options.json) {
          return print.json(
            tokens.map((t) => ({
              id: t.id,
              name: t.name,
              created_by: t.createdBy,
              created_at: t.createdAt.toISOString(),
              last_used_at: t.lastUsedAt?.toISOString() ?? null,
              revoked_at: t.revokedAt?.toISOString() ?? null,
            })),
          );
        }
        if (tokens.length === 0) return print.line(`No MCP tokens in workspace "${workspace.slug}". Create one with: brain token create --name "<where it is used>"`);
        for (const t of tokens) {
          const state = t.revokedAt ? `revoked ${t.revokedAt.toISOString()}` : `last used ${t.lastUsedAt?.toISOString() ?? 'never'}`;
          print.line(`${t.id}  ${t.name}  created ${t.createdAt.toISOString()} by ${t.createdBy}  ${state}`);
        }
      } finally {
        await db.close();
      }
    });
}
