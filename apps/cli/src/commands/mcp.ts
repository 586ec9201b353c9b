import type { Command } from 'commander';
import { authenticateMcpToken } from '@brain/accounts';
import { AppError } from '@brain/errors';
import { EVERYTHING } from '@brain/db';
import { scopeAudience, serveStdio, type CallerResolver, type TokenAudience } from '@brain/mcp';
import { compose } from '../compose.ts';
import { withStoredEmbeddingModel } from '../services/stored-embedding-model.ts';
import { cliLogger, openConfiguredDatabase, readConfig } from '../context.ts';
import { runWorker, type RunningWorker } from '../services/run-worker.ts';
import { onShutdown } from '../shutdown.ts';
import { resolveWorkspace } from '../workspace.ts';

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('serve the brain to an MCP client (Claude Desktop, …) over stdio; BRAIN_MCP_TOKEN picks the workspace, or the local one in embedded mode')
    .option('--workspace <slug>', 'embedded mode without a token: workspace (default: local)')
    .action(async (options: { workspace?: string }) => {
      const config = readConfig();
      // stdout carries the protocol: logs go to stderr only.
      const logger = cliLogger(config, 'brain-mcp');
      if (config.mcpToken && options.workspace) {
        throw new AppError({ code: 'MCP_WORKSPACE_CONFLICT', message: 'Both BRAIN_MCP_TOKEN and --workspace were given.', nextStep: 'A token belongs to one workspace: drop --workspace, or unset BRAIN_MCP_TOKEN to use a local workspace.' });
      }
      if (!config.mcpToken && config.mode !== 'embedded') {
        throw new AppError({
          code: 'MCP_TOKEN_REQUIRED',
          message: 'brain mcp against a shared database needs BRAIN_MCP_TOKEN.',
          nextStep: 'Create a token with `brain token create --workspace <slug> --name "<where it is used>"` (or /mcp-token in Discord) and set BRAIN_MCP_TOKEN to it.',
        });
      }
      const db = await openConfiguredDatabase(config, 'mcp');
      // stdout carries the protocol: anything onboarding would print goes to the log (stderr).
      const app = compose(await withStoredEmbeddingModel(config, db, logger), db, logger, { print: (line) => logger.info(line) });
      let worker: RunningWorker | undefined;
      try {
        // search_brain compares query vectors with stored ones: another model's passages stop it here.
        await app.checkStartup();
        const local = config.mode === 'embedded' ? await resolveWorkspace(db, undefined) : undefined;
        const deps = app.mcp(local?.id);
        const caller = await resolveCaller(config.mcpToken, db, options.workspace, deps.tokenAudience ?? scopeAudience);
        await caller(); // refuse a bad token now, with its reason on stderr, not at the first tool call
        // Embedded, this process holds the database: nothing else can index what save_source queues.
        if (config.mode === 'embedded') worker = await runWorker(app);
        const running = worker;
        onShutdown(logger, async () => {
          await running?.stop();
          await app.close();
          await db.close();
        });
        await serveStdio(deps, caller);
      } finally {
        await worker?.stop();
        await app.close();
        await db.close();
      }
    });
}

async function resolveCaller(token: string | undefined, db: Parameters<typeof resolveWorkspace>[0], slug: string | undefined, audienceOf: TokenAudience): Promise<CallerResolver> {
  if (token) {
    // Checked on every call, so revoking the token cuts an open session off at its next call.
    return async () => {
      const principal = await authenticateMcpToken(db, token);
      return { workspaceId: principal.workspaceId, name: principal.name, audience: await audienceOf(principal) };
    };
  }
  const workspace = await resolveWorkspace(db, slug);
  // No token: the operator's own machine and brain, which sees everything.
  return async () => ({ workspaceId: workspace.id, name: workspace.slug, audience: EVERYTHING });
}
