import type { Command } from 'commander';
import { checkServingConfig } from '@brain/config';
import { yieldRuntimeThreads } from '@brain/db';
import { createMetrics } from '@brain/observability';
import { startWebServer } from '@brain/web';
import { compose } from '../compose.ts';
import { keepCompiledCode } from '../services/keep-compiled-code.ts';
import { withStoredEmbeddingModel } from '../services/stored-embedding-model.ts';
import { cliLogger, openConfiguredDatabase, readConfig } from '../context.ts';
import { wireDiscord } from '../discord-wiring.ts';
import { startGateway } from '../gateway-wiring.ts';
import { print } from '../output.ts';
import { runWorker, type RunningWorker } from '../services/run-worker.ts';
import { onShutdown } from '../shutdown.ts';
import { resolveWorkspace } from '../workspace.ts';

export function registerStart(program: Command): void {
  program
    .command('start')
    .description('run the web service and the worker in one process (the embedded default needs no configuration)')
    .option('--port <port>', 'listen on this port instead of PORT', (v) => Number.parseInt(v, 10))
    .option('--no-worker', 'serve the web only: jobs run in a separate `brain worker` (PostgreSQL mode)')
    .action(async (options: { port?: number; worker: boolean }) => {
      // An acknowledgement after a quiet spell must not compile its path again (keep-compiled-code.ts).
      keepCompiledCode();
      const config = readConfig({ acknowledgesInteractions: true });
      // Before any helper thread starts: V8's own threads give way too (thread-priority.ts).
      yieldRuntimeThreads();
      checkServingConfig(config, 'web');
      const logger = cliLogger(config, 'brain', 'server');
      const db = await openConfiguredDatabase(config, 'start');
      const metrics = createMetrics();
      const app = compose(await withStoredEmbeddingModel(config, db, logger), db, logger, { print: (line) => print.line(line), answeringThread: true });
      let worker: RunningWorker | undefined;
      let discord: Awaited<ReturnType<typeof wireDiscord>> | undefined;
      let gateway: ReturnType<typeof startGateway>;
      try {
        // Answers compare query vectors with stored ones, web service or not: another model's passages stop it here.
        await app.checkStartup();
        const onboarding = app.onboarding();
        // The playground's server is the CLI's local workspace: `brain save` and /ask there share sources.
        const local = await resolveWorkspace(db, undefined);
        discord = await wireDiscord({
          config,
          db,
          logger,
          metrics,
          localWorkspaceId: local.id,
          ask: app.answering(),
          checkEntitlement: app.entitlementCheck(),
          // Real Discord's /ask, whole, to the answering thread: this thread acknowledges and hands over.
          handOff: app.interactionHandOff(local.id),
          openBillingPortal: onboarding.billing.enabled ? (workspaceId: string) => onboarding.billing.createPortalSession(workspaceId) : undefined,
        });
        // The embedded database is this process's alone: nothing else could run its jobs.
        if (options.worker || config.mode === 'embedded') worker = await runWorker(app, metrics.jobs, discord.pretendHistory);
        // Auto-answers run beside the jobs: where there is a worker, there is a Gateway candidate.
        if (worker) gateway = startGateway({ config, db, logger, ask: app.answering(), checkEntitlement: app.entitlementCheck() });
        const web = await startWebServer(
          // Not ready before the answering thread is: a cold instance's first /ask would wait for it.
          { config, db, logger, metrics, onboarding, discord: discord.surface, playground: discord.playground, mcp: app.mcp(local.id), readyAfter: () => app.answeringReady() },
          { ...(options.port !== undefined ? { port: options.port } : {}) },
        );
        const running = { worker, discord, gateway };
        print.line(`Company Brain is running (${config.mode} mode, database ${db.display}).`);
        print.line(`  listening:  ${config.host}:${new URL(web.url).port}${config.host === '127.0.0.1' ? ' (this machine only; HOST=0.0.0.0 serves the network)' : ''}`);
        print.line(`  health:     ${web.url}/healthz`);
        if (discord.playground) print.line(`  playground: ${web.url}/playground   ← try /save and /ask here, no Discord account needed`);
        if (config.discord.publicKey) print.line(`  Discord:    interactions endpoint ${config.publicUrl}/interactions`);
        print.line(`  MCP:        ${config.publicUrl}/mcp (bearer token from \`brain token create\`)`);
        print.line(`  install:    ${config.publicUrl}/install${config.discord.installConfigured ? '' : ' (explains what to configure first)'}`);
        print.line(`  dashboard:  ${config.publicUrl}/dashboard (log in with the email that claimed the server)`);
        print.line(`  magic links: ${onboarding.devOutbox ? `dev outbox (this console and ${web.url}/dev/outbox)` : 'Supabase Auth'}`);
        print.line(`  billing:    ${onboarding.billing.enabled ? `Stripe; webhook ${config.publicUrl}/stripe/webhook` : 'off (STRIPE_SECRET_KEY unset): everything allowed'}`);
        if (config.mode === 'postgres' && onboarding.devOutbox) logger.warn('SUPABASE_URL is not set: magic links are only printed to this console');
        onShutdown(logger, async () => {
          // Stop taking requests and jobs, then let both drain against the same deadline
          // (BRAIN_SHUTDOWN_GRACE_SECONDS from the signal): answers past it edit their reply with
          // a "restarted" notice, jobs past it go back to the queue.
          await Promise.all([web.close(config.shutdownGraceMs), running.worker?.stop(config.shutdownGraceMs), running.gateway?.stop()]);
          await Promise.all([running.discord.close(), onboarding.accounts.drain(), app.close()]);
          await db.close();
        });
      } catch (error) {
        await gateway?.stop();
        await worker?.stop(0);
        await discord?.close();
        await app.close();
        await db.close();
        throw error;
      }
    });
}
