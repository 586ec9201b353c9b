import { Command } from 'commander';
import { formatCliError } from './cli-error.ts';
import { isDebug } from './context.ts';
import { compileForOneShot } from './one-shot-compile.ts';

compileForOneShot(process.argv.slice(2));

const program = new Command()
  .name('brain')
  .description('Company Brain: a Discord bot that answers from what your community saved, with citations.')
  .showHelpAfterError()
  .configureOutput({ outputError: (text, write) => write(text) });

/**
 * Each command's module, in the order `brain --help` lists them, loaded only when needed: a
 * one-shot command such as `brain sources` does not pay for importing the web server, Discord and
 * every other command (each `brain` start is that much faster). Help, `brain help` and an unknown
 * command load them all, so the listing and commander's suggestions stay complete.
 */
const commands: Record<string, () => Promise<(program: Command) => void>> = {
  start: async () => (await import('./commands/start.ts')).registerStart,
  migrate: async () => (await import('./commands/migrate.ts')).registerMigrate,
  save: async () => (await import('./commands/save.ts')).registerSave,
  sources: async () => (await import('./commands/sources.ts')).registerSources,
  ask: async () => (await import('./commands/ask.ts')).registerAsk,
  eval: async () => (await import('./commands/eval.ts')).registerEval,
  reembed: async () => (await import('./commands/reembed.ts')).registerReembed,
  worker: async () => (await import('./commands/worker.ts')).registerWorker,
  sweep: async () => (await import('./commands/sweep.ts')).registerSweep,
  'register-commands': async () => (await import('./commands/register-commands.ts')).registerRegisterCommands,
  doctor: async () => (await import('./commands/doctor.ts')).registerDoctor,
  mcp: async () => (await import('./commands/mcp.ts')).registerMcp,
  token: async () => (await import('./commands/token.ts')).registerToken,
  sync: async () => (await import('./commands/sync.ts')).registerSync,
};

const named = process.argv[2];
for (const [name, load] of Object.entries(commands)) {
  if (named !== undefined && Object.hasOwn(commands, named) && name !== named) continue;
  (await load())(program);
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.stderr.write(formatCliError(error, isDebug()));
  process.exitCode = 1;
}
