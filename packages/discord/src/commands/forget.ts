import { SlashCommandBuilder } from '@discordjs/builders';
import { ApplicationIntegrationType, InteractionContextType } from 'discord-api-types/v10';
import { forgetSource, restoreSource } from '@brain/ingest';
import { booleanOption, focusedOption, stringOption } from '../interactions/options.ts';
import { ADMIN_PERMISSIONS } from '../interactions/permissions.ts';
import type { SlashCommand } from '../interactions/types.ts';
import { forgetReceiptMessage, restoredMessage } from '../render/forget-receipt.ts';
import { notice } from '../render/notice.ts';
import { oneLine, truncate } from '../render/text.ts';
import { searchSources } from '../queries/search-sources.ts';
import { interactionAudience } from '../audience/interaction-audience.ts';

export const forgetCommand: SlashCommand = {
  kind: 'slash',
  adminOnly: true,
  definition: new SlashCommandBuilder()
    .setName('forget')
    .setDescription('Take a source out of every answer (restorable for 30 days)')
    .addStringOption((o) => o.setName('source').setDescription('Start typing its title or address').setRequired(true).setAutocomplete(true))
    .addBooleanOption((o) => o.setName('restore').setDescription('Bring a forgotten source back instead'))
    .setDefaultMemberPermissions(ADMIN_PERMISSIONS)
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .toJSON(),

  acknowledge(interaction) {
    if (!stringOption(interaction, 'source')) return { kind: 'reply', ephemeral: true, message: notice('Pick a source from the list as you type its title.') };
    return { kind: 'defer', ephemeral: true };
  },

  async run(ctx) {
    const sourceId = stringOption(ctx.interaction, 'source') ?? '';
    const { filter } = await interactionAudience(ctx.deps, ctx.workspaceId, ctx.interaction, 'member');
    if (booleanOption(ctx.interaction, 'restore')) {
      await ctx.responder.edit(restoredMessage(await restoreSource(ctx.deps.db, ctx.workspaceId, sourceId, { audience: filter })));
      return;
    }
    await ctx.responder.edit(forgetReceiptMessage(await forgetSource(ctx.deps.db, ctx.workspaceId, sourceId, { audience: filter })));
  },

  async autocomplete({ interaction, workspaceId, deps }) {
    const typed = focusedOption(interaction)?.value ?? '';
    const forgotten = booleanOption(interaction, 'restore') ?? false;
    const { filter } = await interactionAudience(deps, workspaceId, interaction, 'member');
    const sources = await searchSources(deps.db, workspaceId, typed.trim(), { forgotten, limit: 25, audience: filter });
    return sources.map((s) => {
      const label = oneLine(s.title ?? s.fileName ?? s.url ?? s.id);
      const state = s.forgotten ? 'forgotten' : s.status;
      return { name: truncate(`${label} — ${state}`, 100), value: s.id };
    });
  },
};
