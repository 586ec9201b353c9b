import type { Command } from 'commander';
import type { AskFunction } from '@brain/discord';
import { AppError } from '@brain/errors';
import { startWebServer } from '@brain/web';
import { cliLogger, openConfiguredDatabase, readConfig } from '../context.ts';
import { wireDiscord } from '../discord-wiring.ts';
import { print } from '../output.ts';
import { runWorker, type RunningWorker } from '../services/run-worker.ts';
import { onShutdown } from '../shutdown.ts';
import { resolveWorkspace } from '../workspace.ts';

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
      const logger = cliLogger(config, 'brain', 'server');
      const db = await openConfiguredDatabase(config, 'start');
      let worker: RunningWorker | undefined;
      let discord: Awaited<ReturnType<typeof wireDiscord>> | undefined;
      try {
        worker = await runWorker(config, db, logger);
        // The playground's server is the CLI's local workspace: `brain save` and /ask there share sources.
        const local = await resolveWorkspace(db, undefined);
        discord = await wireDiscord({ config, db, logger, localWorkspaceId: local.id, ask: answeringUnavailable });
        const web = await startWebServer(
          { config, db, logger, discord: discord.surface, playground: discord.playground },
          { ...(options.port !== undefined ? { port: options.port } : {}) },
        );
        const running = { worker, discord };
        print.line(`Company Brain is running (${config.mode} mode, database ${db.display}).`);
        print.line(`  health:     ${web.url}/healthz`);
        if (discord.playground) print.line(`  playground: ${web.url}/playground   ← try /save and /ask here, no Discord account needed`);
        if (config.discord.publicKey) print.line(`  Discord:    interactions endpoint ${config.publicUrl}/interactions`);
        onShutdown(logger, async () => {
          // Stop taking requests and jobs first, then let both drain (answers in flight still get their edit).
          await Promise.all([web.close(), running.worker.stop()]);
          await running.discord.close();
          await db.close();
        });
      } catch (error) {
        await worker?.stop(0);
        await discord?.close();
        await db.close();
        throw error;
      }
    });
}
