import { SlashCommandBuilder } from '@discordjs/builders';
import { ApplicationIntegrationType, InteractionContextType } from 'discord-api-types/v10';
import { listSources, type SourceSummary } from '@brain/ingest';
import { interactionAudience } from '../audience/interaction-audience.ts';
import { stringOption } from '../interactions/options.ts';
import { isServerAdmin } from '../interactions/permissions.ts';
import type { SlashCommand } from '../interactions/types.ts';
import { DISCORD_LIMITS } from '../render/limits.ts';
import { renderSourcesPage, SOURCES_PAGE_SIZE } from '../render/sources-page.ts';
import { syncedChannelLine } from '../render/synced-channels.ts';
import { truncate } from '../render/text.ts';
import { listSyncedChannels } from '../sync/list-synced-channels.ts';

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
    const message = renderSourcesPage(page, { page: 1, status, factsKnown });
    // A paused sync is why sources stop changing: say so where admins look for them (only to
    // admins: a paused channel may be one this member cannot read, and its counts are not theirs).
    const paused = isServerAdmin(ctx.interaction) ? (await listSyncedChannels(ctx.deps.db, ctx.workspaceId)).filter((c) => c.state === 'paused') : [];
    if (paused.length > 0) message.content = truncate(['**Sync paused**', ...paused.map(syncedChannelLine)].join('\n'), DISCORD_LIMITS.content);
    await ctx.responder.edit(message);
  },
};
