import { ContextMenuCommandBuilder } from '@discordjs/builders';
import { ApplicationCommandType, ApplicationIntegrationType, InteractionContextType, PermissionFlagsBits, type APIMessageApplicationCommandInteraction, type APIThreadChannel } from 'discord-api-types/v10';
import type { MessageCommand } from '../interactions/types.ts';
import { notice } from '../render/notice.ts';
import { inert } from '../render/text.ts';
import { markSolvedAndSave } from '../solved/mark-solved.ts';
import { SAVE_THREAD_COMMAND, targetThread } from './save-thread.ts';

export const MARK_SOLVED_COMMAND = 'Mark solved';

/** Manage Threads (moderators) or Administrator: they may mark anyone's thread solved. */
function canManageThreads(interaction: APIMessageApplicationCommandInteraction): boolean {
  const raw = interaction.member?.permissions;
  if (!raw || !/^\d+$/.test(raw)) return false;
  const permissions = BigInt(raw);
  return (permissions & (PermissionFlagsBits.Administrator | PermissionFlagsBits.ManageThreads)) !== 0n;
}

const NOT_YOURS = `Only the person who started this thread, or someone with Manage Threads, can mark it solved.`;

/**
 * "Mark solved" on a message in a thread: the thread is marked solved and saved as a source (or
 * its source refreshed), with `solved` set, so answers prefer it. The thread's author or a
 * member with Manage Threads only.
 */
export const markSolvedCommand: MessageCommand = {
  kind: 'message',
  entitlement: 'save',
  definition: new ContextMenuCommandBuilder()
    .setName(MARK_SOLVED_COMMAND)
    .setType(ApplicationCommandType.Message)
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .toJSON(),

  acknowledge(interaction, deps) {
    if (!targetThread(interaction)) {
      return { kind: 'reply', ephemeral: true, message: notice(`“${MARK_SOLVED_COMMAND}” marks a thread or forum post solved: use it on a message inside one.`) };
    }
    const owner = (interaction.channel as { owner_id?: string } | undefined)?.owner_id;
    const user = interaction.member?.user.id ?? interaction.user?.id;
    if (!canManageThreads(interaction) && owner !== undefined && owner !== user) return { kind: 'reply', ephemeral: true, message: notice(NOT_YOURS) };
    if (!deps.history) {
      return {
        kind: 'reply',
        ephemeral: true,
        message: notice(`Saving a solved thread reads it whole, which needs the bot’s own token, and this brain has none. Ask the operator to set \`DISCORD_BOT_TOKEN\`; “${SAVE_THREAD_COMMAND}” needs it too.`),
      };
    }
    return { kind: 'defer', ephemeral: true };
  },

  async run(ctx) {
    const thread = targetThread(ctx.interaction);
    const history = ctx.deps.history;
    if (!thread || !history) throw new Error('unreachable: acknowledged without a thread or history');
    const guildId = ctx.interaction.guild_id ?? '0';
    // The payload's channel may not say who started the thread: Discord's own record decides.
    if (!canManageThreads(ctx.interaction)) {
      const info = (await history.channel(thread.id, { signal: ctx.signal })) as APIThreadChannel;
      if (info.owner_id !== ctx.user.id) {
        await ctx.responder.edit(notice(NOT_YOURS));
        return;
      }
    }
    const result = await markSolvedAndSave(ctx.deps.db, history, { workspaceId: ctx.workspaceId, guildId, threadId: thread.id, how: 'command', userId: ctx.user.id, signal: ctx.signal });
    const name = inert(thread.name ?? 'this thread');
    switch (result.status) {
      case 'saved':
        await ctx.responder.edit(
          notice(`✅ Marked solved: “${name}” is ${result.created ? 'now saved to the brain' : 'refreshed in the brain'}, and answers prefer it. It is searchable once indexed (a few seconds).`),
        );
        return;
      case 'forgotten':
        await ctx.responder.edit(notice(`Marked solved, but “${name}” was forgotten from the brain on purpose, so it stays out. Save it again with “${SAVE_THREAD_COMMAND}” to bring it back.`));
        return;
      default:
        await ctx.responder.edit(notice(`Marked solved, but “${name}” has no messages with text to save.`));
    }
  },
};
