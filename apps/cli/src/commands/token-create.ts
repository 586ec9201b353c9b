import type { Command } from 'commander';
import { createMcpToken } from '@brain/accounts';
import { openConfiguredDatabase, readConfig } from '../context.ts';
import { print } from '../output.ts';
import { resolveWorkspace } from '../workspace.ts';

export function registerTokenCreate(token: Command): void {
  token
    .command('create')
    .description('create an MCP token for a workspace; it is printed once and only its hash is kept')
    .requiredOption('--name <name>', 'where it will be used, e.g. "Claude Desktop (Ana)"')
    .option('--workspace <slug>', 'workspace (default: local)')
    .option('--channel <id>', 'read what this Discord channel\'s readers may see (default: public, what everyone in the server can read)')
    .option('--json', 'print JSON')
    .action(async (options: { name: string; workspace?: string; channel?: string; json?: boolean }) => {
      const config = readConfig();
      const db = await openConfiguredDatabase(config, 'token create');
      try {
        const workspace = await resolveWorkspace(db, options.workspace);
        const created = await createMcpToken(db, workspace.id, options.name, 'cli', options.channel === undefined ? 'public' : `channel:${options.channel}`);
        const scope = created.summary.audienceScope;
        if (options.json) {
          return print.json({ id: created.summary.id, name: created.summary.name, workspace: workspace.slug, scope, token: created.token });
        }
        print.line(`Created MCP token "${created.summary.name}" for workspace "${workspace.slug}" (id ${created.summary.id}), reading ${scope === 'public' ? 'what everyone in the server can read' : `what the readers of channel ${scope.slice('channel:'.length)} may see`}:`);
        print.line('');
        print.line(`  ${created.token}`);
        print.line('');
        print.line('Copy it now: it is shown this once and cannot be retrieved later.');
        print.line(`  stdio:  BRAIN_MCP_TOKEN=<token> brain mcp`);
        print.line(`  remote: POST ${config.publicUrl}/mcp with the header "Authorization: Bearer <token>"`);
        print.line(`Revoke it with: brain token revoke ${created.summary.id}${options.workspace ? ` --workspace ${workspace.slug}` : ''}`);
      } finally {
        await db.close();
      }
    });
}
