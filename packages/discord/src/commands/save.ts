import { SlashCommandBuilder } from '@discordjs/builders';
import { ApplicationIntegrationType, InteractionContextType, type APIChatInputApplicationCommandInteraction } from 'discord-api-types/v10';
import { AppError } from '@brain/errors';
import { MAX_SOURCE_BYTES, normalizeUrl, type SourceInput } from '@brain/ingest';
import { attachmentOption, stringOption } from '../interactions/options.ts';
import type { RunContext, SlashCommand } from '../interactions/types.ts';
import { notice } from '../render/notice.ts';
import { inert, noPreview, truncate } from '../render/text.ts';
import { saveAndReport } from '../save/save-and-report.ts';

function given(interaction: APIChatInputApplicationCommandInteraction) {
  return {
    url: stringOption(interaction, 'url'),
    file: attachmentOption(interaction, 'file'),
    text: stringOption(interaction, 'text'),
    title: stringOption(interaction, 'title'),
  };
}

export const saveCommand: SlashCommand = {
  kind: 'slash',
  entitlement: 'save',
  definition: new SlashCommandBuilder()
    .setName('save')
    .setDescription("Save a link, a file or some text to this server's brain")
    .addStringOption((o) => o.setName('url').setDescription('A web page or PDF link').setMaxLength(2000))
    .addAttachmentOption((o) => o.setName('file').setDescription('A PDF, HTML, Markdown or text file (up to 20 MB)'))
    .addStringOption((o) => o.setName('text').setDescription('Text to remember, e.g. a decision or a how-to').setMaxLength(6000))
    .addStringOption((o) => o.setName('title').setDescription('A title to show in citations (optional)').setMaxLength(200))
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .toJSON(),

  acknowledge(interaction) {
    const { url, file, text } = given(interaction);
    const count = [url, file, text].filter((x) => x !== undefined).length;
    if (count !== 1) {
      const why = count === 0 ? 'Tell me what to save:' : 'One thing at a time:';
      return { kind: 'reply', ephemeral: true, message: notice(`${why} \`/save url:\`, \`/save file:\` or \`/save text:\` (and optionally \`title:\`).`) };
    }
    if (url !== undefined) {
      try {
        normalizeUrl(url);
      } catch (error) {
        const reason = error instanceof AppError ? error.toUserString() : 'That is not a web address.';
        return { kind: 'reply', ephemeral: true, message: notice(`⚠️ ${reason}`) };
      }
    }
    if (file && file.size > MAX_SOURCE_BYTES) {
      return { kind: 'reply', ephemeral: true, message: notice(`⚠️ ${inert(file.filename)} is larger than 20 MB. Split it, or save the part that matters as text.`) };
    }
    return { kind: 'defer', ephemeral: false };
  },

  async run(ctx) {
    const { url, file, text, title } = given(ctx.interaction);
    if (url !== undefined) return saveAndReport(ctx, { kind: 'url', url, title }, noPreview(normalizeUrl(url)));
    if (text !== undefined) return saveAndReport(ctx, { kind: 'text', text, title }, `*${inert(truncate(title ?? text.split('\n')[0] ?? 'your note', 80))}*`);
    if (file) return saveAndReport(ctx, await downloadFile(ctx, file, title), `*${inert(file.filename)}*`);
  },
};

async function downloadFile(
  ctx: RunContext<APIChatInputApplicationCommandInteraction>,
  file: NonNullable<ReturnType<typeof attachmentOption>>,
  title: string | undefined,
): Promise<SourceInput> {
  // Discord's attachment links expire; the bytes are fetched now and stored with the source.
  const { bytes, contentType } = await ctx.deps.downloadAttachment(file.url, { maxBytes: MAX_SOURCE_BYTES, signal: ctx.signal });
  return { kind: 'file', bytes, fileName: file.filename, mimeType: file.content_type ?? contentType ?? '', title };
}
