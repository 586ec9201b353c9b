import { restoreSource } from '@brain/ingest';
import { interactionAudience } from '../audience/interaction-audience.ts';
import type { ButtonHandler } from '../interactions/types.ts';
import { RESTORE_PREFIX, restoredMessage } from '../render/forget-receipt.ts';

/** Undo on a /forget receipt: admin-only, like /forget itself; the receipt becomes the restore note. */
export const restoreSourceButton: ButtonHandler = {
  prefix: RESTORE_PREFIX,
  adminOnly: true,
  acknowledge: () => ({ kind: 'defer-update' }),
  async run(ctx) {
    const sourceId = ctx.interaction.data.custom_id.split(':')[1] ?? '';
    const { filter } = await interactionAudience(ctx.deps, ctx.workspaceId, ctx.interaction, 'member');
    await ctx.responder.edit(restoredMessage(await restoreSource(ctx.deps.db, ctx.workspaceId, sourceId, { audience: filter })));
  },
};
