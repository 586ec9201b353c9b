import type { ToolRegistry } from '../protocol/tool-registry.ts';
import { z } from 'zod';
import { FORGET_RETENTION_DAYS, forgetSource } from '@brain/ingest';
import { clipTitle } from '../source-view.ts';
import { describeTool } from '../tool-description.ts';
import { SOURCE_ID_NEXT_ACTIONS, toolError, toolSuccess } from '../tool-result.ts';
import { sourceIdSchema } from './get-source.ts';
import type { ToolContext } from './tool-context.ts';

const outputSchema = {
  id: z.string(),
  title: z.string().nullable(),
  passages_hidden: z.number().int().describe('Passages taken out of search and answers.'),
  forgotten_at: z.string(),
  restorable_until: z.string().describe('Until then restore_source brings it back; afterwards it is deleted.'),
  note: z.string(),
};

export function registerForgetSource(server: ToolRegistry, ctx: ToolContext): void {
  server.registerTool(
    'forget_source',
    {
      title: 'Forget a source',
      description: describeTool({
        purpose: 'Take one source out of every search and answer of this workspace, at once.',
        whenToUse: 'When the user asks to remove, hide or forget a source (outdated, wrong, or saved by mistake). Confirm with the user first: it affects the whole team.',
        notFor: 'Undoing a forget: use restore_source. Refreshing a changed page: use save_source with the same URL.',
        sideEffects: `Marks the source forgotten and hides its passages from search_brain and /ask for everyone in the workspace. After ${FORGET_RETENTION_DAYS} days it is deleted.`,
        reversibility: `Reversible for ${FORGET_RETENTION_DAYS} days with restore_source. Forgetting twice keeps the first date.`,
        example: '{"id": "5f1c2f9e-8a53-4c1e-9a77-2b0f3c9d4e10"}',
      }),
      inputSchema: { id: sourceIdSchema },
      outputSchema,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ id }) => {
      try {
        const { workspaceId, audience } = await ctx.caller();
        const receipt = await forgetSource(ctx.deps.db, workspaceId, id, { audience });
        const until = receipt.restorableUntil.toISOString();
        const note = `Forgot "${clipTitle(receipt.title) ?? id}": ${receipt.passages} passage(s) no longer answer. Undo with restore_source (id ${id}) until ${until}.`;
        const structured = { id, title: clipTitle(receipt.title), passages_hidden: receipt.passages, forgotten_at: receipt.forgottenAt.toISOString(), restorable_until: until, note };
        return toolSuccess(structured, note);
      } catch (error) {
        return toolError(error, ctx.deps.logger, SOURCE_ID_NEXT_ACTIONS);
      }
    },
  );
}
