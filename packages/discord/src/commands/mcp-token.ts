import { SlashCommandBuilder } from '@discordjs/builders';
import { ApplicationIntegrationType, InteractionContextType } from 'discord-api-types/v10';
import { createMcpToken, MCP_TOKEN_NAME_MAX } from '@brain/accounts';
import { invokingChannel } from '../audience/invoking-channel.ts';
import { booleanOption, stringOption } from '../interactions/options.ts';
import { ADMIN_PERMISSIONS } from '../interactions/permissions.ts';
import type { SlashCommand } from '../interactions/types.ts';
import { mcpTokenMessage } from '../render/mcp-token-message.ts';
import { notice } from '../render/notice.ts';

/**
 * Creates an MCP token for this server's workspace, for an agent (Claude Desktop, …) to search
 * the brain with. Admins only; the reply is ephemeral and the only place the token ever appears.
 */
export const mcpTokenCommand: SlashCommand = {
  kind: 'slash',
  adminOnly: true,
  definition: new SlashCommandBuilder()
    .setName('mcp-token')
    .setDescription('Create a token that lets an AI agent (Claude Desktop, …) search this server’s brain')
    .addStringOption((o) =>
      o.setName('name').setDescription('Where it will be used, e.g. "Claude Desktop (Ana)"').setRequired(true).setMaxLength(MCP_TOKEN_NAME_MAX),
    )
    .addBooleanOption((o) => o.setName('this_channel').setDescription('Read what this channel’s readers may see (default: only what everyone in the server can read)'))
    .setDefaultMemberPermissions(ADMIN_PERMISSIONS)
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .toJSON(),

  acknowledge(interaction) {
    if (!stringOption(interaction, 'name')) return { kind: 'reply', ephemeral: true, message: notice('Give the token a name, like `/mcp-token name: Claude Desktop (Ana)`.') };
    return { kind: 'defer', ephemeral: true };
  },

  async run(ctx) {
    const name = stringOption(ctx.interaction, 'name') ?? '';
    const channel = booleanOption(ctx.interaction, 'this_channel') === true ? invokingChannel(ctx.interaction) : undefined;
    // A thread's token reads as its channel does; a private thread's, that thread.
    const audienceId = channel && channel.type !== 12 && channel.parentId && [10, 11].includes(channel.type) ? channel.parentId : channel?.id;
    const created = await createMcpToken(ctx.deps.db, ctx.workspaceId, name, `discord:${ctx.user.id}`, audienceId ? `channel:${audienceId}` : 'public');
    ctx.log.info({ tokenId: created.summary.id, by: ctx.user.id }, '/mcp-token: created a token');
    await ctx.responder.edit(mcpTokenMessage(created.summary.name, created.summary.id, created.token));
  },
};
