import { SlashCommandBuilder } from '@discordjs/builders';
import { ApplicationIntegrationType, InteractionContextType, MessageFlags } from 'discord-api-types/v10';
import { ADMIN_PERMISSIONS } from '../interactions/permissions.ts';
import type { SlashCommand } from '../interactions/types.ts';
import { notice } from '../render/notice.ts';

/**
 * /billing: a Stripe Customer Portal link (card, invoices, cancel) for this server's plan, shown
 * to the admin who asked and nobody else. The link is a fresh session that Stripe expires soon,
 * so it is never posted where others could open it.
 */
export const billingCommand: SlashCommand = {
  kind: 'slash',
  adminOnly: true,
  definition: new SlashCommandBuilder()
    .setName('billing')
    .setDescription('Manage this server’s Company Brain plan: card, invoices, cancel (admins only)')
    .setDefaultMemberPermissions(ADMIN_PERMISSIONS)
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .toJSON(),

  acknowledge: () => ({ kind: 'defer', ephemeral: true }),

  async run(ctx) {
    const open = ctx.deps.openBillingPortal;
    if (!open) {
      await ctx.responder.edit(notice('Billing is off for this Company Brain (no Stripe account is configured), so there is no plan to manage: everything is allowed.'));
      return;
    }
    const { url } = await open(ctx.workspaceId);
    await ctx.responder.edit({
      content: `🔒 [Open the billing portal](${url}) to change the card, see invoices or cancel. The link is for you only and expires soon; run /billing again for a new one.`,
      embeds: [],
      components: [],
      flags: MessageFlags.SuppressEmbeds,
    });
  },
};
