import { SlashCommandBuilder } from '@discordjs/builders';
import { ApplicationIntegrationType, InteractionContextType, MessageFlags } from 'discord-api-types/v10';
import { interactionAudience } from '../audience/interaction-audience.ts';
import { booleanOption, stringOption } from '../interactions/options.ts';
import type { SlashCommand } from '../interactions/types.ts';
import { renderAnswer } from '../render/answer-message.ts';
import { notice } from '../render/notice.ts';

/** Discord allows 6,000; the answerer refuses more than 2,000 (@brain/answer MAX_QUESTION_CHARS). */
const MAX_QUESTION = 2000;

export const askCommand: SlashCommand = {
  kind: 'slash',
  entitlement: 'ask',
  definition: new SlashCommandBuilder()
    .setName('ask')
    .setDescription("Ask a question; the answer comes only from this server's saved sources, with citations")
    .addStringOption((o) => o.setName('question').setDescription('What do you want to know?').setRequired(true).setMaxLength(MAX_QUESTION))
    .addBooleanOption((o) => o.setName('private').setDescription('Answer only to you, from every source you can read yourself'))
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .toJSON(),

  acknowledge(interaction) {
    if (!stringOption(interaction, 'question')) {
      return { kind: 'reply', ephemeral: true, message: notice('Ask a question with a few words in it, e.g. `/ask question: How do we deploy?`') };
    }
    // A private answer may cite what only the asker can read: nobody else may see it.
    return { kind: 'defer', ephemeral: booleanOption(interaction, 'private') === true };
  },

  async run(ctx) {
    const question = stringOption(ctx.interaction, 'question') ?? '';
    const privately = booleanOption(ctx.interaction, 'private') === true;
    // A normal answer is read by everyone in the channel: it cites only what all of them could read.
    const { filter } = await interactionAudience(ctx.deps, ctx.workspaceId, ctx.interaction, privately ? 'member' : 'channel');
    const result = await ctx.deps.ask({
      workspaceId: ctx.workspaceId,
      question,
      audience: filter,
      surface: ctx.origin,
      askedBy: ctx.user.id,
      interactionId: ctx.interaction.id,
      signal: ctx.signal,
      // A public reply that finds nothing may say a private answer exists, judged by the asker's own permissions.
      ...(privately ? {} : { privateAudience: async () => (await interactionAudience(ctx.deps, ctx.workspaceId, ctx.interaction, 'member')).filter }),
    });
    const [first, ...rest] = renderAnswer(question, result);
    if (first) await ctx.responder.edit(first);
    for (const more of rest) await ctx.responder.followUp(privately ? { ...more, flags: (more.flags ?? 0) | MessageFlags.Ephemeral } : more);
  },
};
