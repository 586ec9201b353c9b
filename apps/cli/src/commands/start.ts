import type { Command } from 'commander';
import { migrate, withService, ensureWorkspace } from '@brain/db';
import { AppError } from '@brain/errors';
import { startWebServer } from '@brain/web';
import type { AskFunction } from '@brain/discord';
import { cliLogger, openConfiguredDatabase, readConfig } from '../context.ts';
import { wireDiscord } from '../discord-wiring.ts';
import { print } from '../output.ts';
import { onShutdown } from '../shutdown.ts';
import { LOCAL_WORKSPACE } from '../workspace.ts';

// Replaced by @brain/answer's ask once it is on main; until then /ask says so instead of hanging.
const answeringUnavailable: AskFunction = async () => {
  throw new AppError({
    code: 'ANSWERING_UNAVAILABLE',
    message: 'No answerer is wired into this build.',
    userMessage: 'Answering is not available in this build yet.',
    nextStep: 'Update Company Brain and restart it.',
    httpStatus: 503,
  });
};

export function registerStart(program: Command): void {
  program
    .command('start')
    .description('run the web service and the worker in one process (the embedded default needs no configuration)')
    .option('--port <port>', 'listen on this port instead of PORT', (v) => Number.parseInt(v, 10))
    .action(async (options: { port?: number }) => {
      const config = readConfig();
      const logger = cliLogger(config, 'brain');
      const db = await openConfiguredDatabase(config, 'start');
      try {
        const migrated = await migrate(db);
        if (migrated.applied.length > 0) logger.info({ applied: migrated.applied.length }, 'database migrated');
        const local = await withService(db, (tx) => ensureWorkspace(tx, LOCAL_WORKSPACE));
        const discord = await wireDiscord({ config, db, logger, localWorkspaceId: local.id, ask: answeringUnavailable });
        const web = await startWebServer(
          { config, db, logger, discord: discord.surface, playground: discord.playground },
          { ...(options.port !== undefined ? { port: options.port } : {}) },
        );
        print.line(`Company Brain is running (${config.mode} mode, database ${db.display}).`);
        print.line(`  health:     ${web.url}/healthz`);
        if (discord.playground) print.line(`  playground: ${web.url}/playground   ← try /save and /ask here, no Discord account needed`);
        if (config.discord.publicKey) print.line(`  Discord:    interactions endpoint ${config.publicUrl}/interactions`);
        onShutdown(logger, async () => {
          await web.close();
          await discord.close();
          await db.close();
        });
      } catch (error) {
        await db.close();
        throw error;
      }
    });
}
