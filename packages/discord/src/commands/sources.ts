import { SlashCommandBuilder } from '@discordjs/builders';
import { ApplicationIntegrationType, InteractionContextType } from 'discord-api-types/v10';
import { listSources, type SourceSummary } from '@brain/ingest';
import { interactionAudience } from '../audience/interaction-audience.ts';
import { stringOption } from '../interactions/options.ts';
import type { SlashCommand } from '../interactions/types.ts';
import { renderSourcesPage, SOURCES_PAGE_SIZE } from '../render/sources-page.ts';

const STATUSES = ['queued', 'indexing', 'ready', 'failed'] as const;

export const sourcesCommand: SlashCommand = {
  kind: 'slash',
  definition: new SlashCommandBuilder()
    .setName('sources')
    .setDescription('List what this server has saved, with each source’s status')
    .addStringOption((o) =>
      o
        .setName('status')
        .setDescription('Only sources in this state')
        .addChoices(...STATUSES.map((s) => ({ name: s, value: s }))),
    )
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .toJSON(),

  acknowledge: () => ({ kind: 'defer', ephemeral: true }),

  async run(ctx) {
    const raw = stringOption(ctx.interaction, 'status');
    const status: SourceSummary['status'] | undefined = STATUSES.find((s) => s === raw);
    // The list is ephemeral: it shows what this member can read.
    const { filter, factsKnown } = await interactionAudience(ctx.deps, ctx.workspaceId, ctx.interaction, 'member');
    const page = await listSources(ctx.deps.db, ctx.workspaceId, { status, limit: SOURCES_PAGE_SIZE, audience: filter });
    await ctx.responder.edit(renderSourcesPage(page, { page: 1, status, factsKnown }));
  },
};
