import { ContextMenuCommandBuilder } from '@discordjs/builders';
import { ApplicationCommandType, ApplicationIntegrationType, InteractionContextType, type APIMessage, type APIMessageApplicationCommandInteraction } from 'discord-api-types/v10';
import { mimeTypeForFileName, type SourceInput } from '@brain/ingest';
import type { MessageCommand } from '../interactions/types.ts';
import { notice } from '../render/notice.ts';
import { inert, truncate } from '../render/text.ts';
import { saveAndReport } from '../save/save-and-report.ts';

export const SAVE_MESSAGE_COMMAND = 'Save to brain';

function targetMessage(interaction: APIMessageApplicationCommandInteraction): APIMessage | undefined {
  return interaction.data.resolved.messages[interaction.data.target_id];
}

/** The message's permanent link: what its citations point to. */
export function jumpUrl(guildId: string, channelId: string, messageId: string): string {
  return `https://discord.com/channels/${guildId}/${channelId}/${messageId}`;
}

/** "Save to brain" on a message: its text and its PDF/text attachments, cited by the jump link. */
export const saveMessageCommand: MessageCommand = {
  kind: 'message',
  entitlement: 'save',
  definition: new ContextMenuCommandBuilder()
    .setName(SAVE_MESSAGE_COMMAND)
    .setType(ApplicationCommandType.Message)
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .toJSON(),

  acknowledge(interaction) {
    const message = targetMessage(interaction);
    if (!message || (!message.content.trim() && message.attachments.length === 0)) {
      return { kind: 'reply', ephemeral: true, message: notice('That message has no text or attachments to save.') };
    }
    return { kind: 'defer', ephemeral: false };
  },

  async run(ctx) {
    const message = targetMessage(ctx.interaction) as APIMessage;
    const guildId = ctx.interaction.guild_id ?? '0';
    const author = message.author.global_name ?? message.author.username;
    const input: SourceInput = {
      kind: 'discord_message',
      guildId,
      channelId: message.channel_id,
      messageId: message.id,
      content: message.content,
      author,
      jumpUrl: jumpUrl(guildId, message.channel_id, message.id),
      attachments: message.attachments.map((a) => ({
        id: a.id,
        url: a.url,
        fileName: a.filename,
        mimeType: a.content_type ?? mimeTypeForFileName(a.filename) ?? 'application/octet-stream',
        size: a.size,
      })),
    };
    const preview = message.content.trim() ? `“${truncate(message.content.replace(/\s+/g, ' ').trim(), 60)}”` : `${message.attachments.length} attachment(s)`;
    await saveAndReport(ctx, input, `${inert(author)}'s message ${inert(preview)}`);
  },
};
