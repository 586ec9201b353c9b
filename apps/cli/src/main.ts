import { Command } from 'commander';
import { formatCliError } from './cli-error.ts';
import { registerDoctor } from './commands/doctor.ts';
import { registerAsk } from './commands/ask.ts';
import { registerEval } from './commands/eval.ts';
import { registerMcp } from './commands/mcp.ts';
import { registerMigrate } from './commands/migrate.ts';
import { registerReembed } from './commands/reembed.ts';
import { registerRegisterCommands } from './commands/register-commands.ts';
import { registerSave } from './commands/save.ts';
import { registerSources } from './commands/sources.ts';
import { registerStart } from './commands/start.ts';
import { registerSweep } from './commands/sweep.ts';
import { registerToken } from './commands/token.ts';
import { registerWorker } from './commands/worker.ts';
import { isDebug } from './context.ts';

const program = new Command()
  .name('brain')
  .description('Company Brain: a Discord bot that answers from what your community saved, with citations.')
  .showHelpAfterError()
  .configureOutput({ outputError: (text, write) => write(text) });

registerStart(program);
registerMigrate(program);
registerSave(program);
registerSources(program);
registerAsk(program);
registerEval(program);
registerReembed(program);
registerWorker(program);
registerSweep(program);
registerRegisterCommands(program);
registerDoctor(program);
registerMcp(program);
registerToken(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.stderr.write(formatCliError(error, isDebug()));
  process.exitCode = 1;
}
