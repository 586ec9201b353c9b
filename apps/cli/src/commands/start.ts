import type { Command } from 'commander';
import { migrate } from '@brain/db';
import { startWebServer } from '@brain/web';
import { cliLogger, openConfiguredDatabase, readConfig, resolveCookieSecret } from '../context.ts';
import { buildOnboarding } from '../onboarding.ts';
import { print } from '../output.ts';
import { onShutdown } from '../shutdown.ts';

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
        const onboarding = buildOnboarding({ config, db, logger, cookieSecret: resolveCookieSecret(config, logger), print: (line) => print.line(line) });
        const web = await startWebServer({ config, db, logger, onboarding }, { ...(options.port !== undefined ? { port: options.port } : {}) });
        print.line(`Company Brain is running (${config.mode} mode, database ${db.display}).`);
        print.line(`  health:     ${web.url}/healthz`);
        print.line(`  install:    ${config.publicUrl}/install${config.discord.installConfigured ? '' : ' (explains what to configure first)'}`);
        print.line(`  magic links: ${onboarding.devOutbox ? `dev outbox (this console and ${web.url}/dev/outbox)` : 'Supabase Auth'}`);
        print.line(`  billing:    ${onboarding.billing.enabled ? `Stripe; webhook ${config.publicUrl}/stripe/webhook` : 'off (STRIPE_SECRET_KEY unset): everything allowed'}`);
        if (config.mode === 'postgres' && onboarding.devOutbox) logger.warn('SUPABASE_URL is not set: magic links are only printed to this console');
        onShutdown(logger, async () => {
          await web.close();
          await onboarding.accounts.drain();
          await db.close();
        });
      } catch (error) {
        await db.close();
        throw error;
      }
    });
}
