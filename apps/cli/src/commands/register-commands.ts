import type { Command } from 'commander';
import { commandDefinitions, createDiscordApi } from '@brain/discord';
import { AppError } from '@brain/errors';
import { readConfig } from '../context.ts';
import { print } from '../output.ts';

export function registerRegisterCommands(program: Command): void {
  program
    .command('register-commands')
    .description("upload the slash and message commands to Discord (a bulk overwrite; --guild for one server, instantly)")
    .option('--guild <id>', "register for one server only (updates at once; global commands can take a while to appear)")
    .option('--dry-run', 'print the commands as JSON instead of uploading them')
    .action(async (options: { guild?: string; dryRun?: boolean }) => {
      const commands = commandDefinitions();
      if (options.dryRun) return print.json(commands);
      const config = readConfig();
      const { applicationId, botToken, apiBase } = config.discord;
      if (!applicationId || !botToken) {
        throw new AppError({
          code: 'CONFIG_INVALID',
          message: `brain register-commands needs ${[!applicationId && 'DISCORD_APPLICATION_ID', !botToken && 'DISCORD_BOT_TOKEN'].filter(Boolean).join(' and ')}.`,
          nextStep: 'Copy them from the Discord developer portal (General Information → Application ID; Bot → Reset Token), then run it again.',
        });
      }
      if (options.guild !== undefined && !/^\d{17,20}$/.test(options.guild)) {
        throw new AppError({ code: 'GUILD_ID_INVALID', message: `"${options.guild}" is not a server id.`, nextStep: 'Right-click the server with Developer Mode on → Copy Server ID.' });
      }
      const api = createDiscordApi({ apiBase, botToken, retries: 1 });
      try {
        await api.putCommands(applicationId, commands, options.guild);
      } catch (error) {
        const status = (error as { status?: number }).status;
        throw new AppError({
          code: 'DISCORD_REGISTER_FAILED',
          message: `Discord refused the commands${status ? ` (HTTP ${status})` : ''}: ${error instanceof Error ? error.message : String(error)}`,
          nextStep: status === 401 ? 'Check DISCORD_BOT_TOKEN (Bot → Reset Token).' : 'Check DISCORD_APPLICATION_ID and that the bot is in that server, then try again.',
          cause: error,
        });
      }
      const names = commands.map((c) => ('description' in c ? `/${c.name}` : `"${c.name}" (message menu)`));
      print.line(`Registered ${commands.length} commands ${options.guild ? `in server ${options.guild}` : 'globally'}: ${names.join(', ')}.`);
      if (!options.guild) print.line('Global commands can take up to an hour to show up everywhere; use --guild <id> to try them at once.');
    });
}
