import type { ToolRegistry } from '../protocol/tool-registry.ts';
import { z } from 'zod';
import { isAppError } from '@brain/errors';
import { FORGET_RETENTION_DAYS, getSource, restoreSource } from '@brain/ingest';
import { clipTitle } from '../source-view.ts';
import { describeTool } from '../tool-description.ts';
import { SOURCE_ID_NEXT_ACTIONS, toolError, toolSuccess } from '../tool-result.ts';
import { sourceIdSchema } from './get-source.ts';
import type { ToolContext } from './tool-context.ts';

const outputSchema = {
  id: z.string(),
  title: z.string().nullable(),
  restored: z.boolean().describe('False when the source was not forgotten: nothing changed.'),
  passages_live: z.number().int().describe('Passages answering again.'),
  note: z.string(),
};

export function registerRestoreSource(server: ToolRegistry, ctx: ToolContext): void {
  server.registerTool(
    'restore_source',
    {
      title: 'Restore a forgotten source',
      description: describeTool({
        purpose: `Bring a forgotten source back into search and answers (within ${FORGET_RETENTION_DAYS} days of forgetting it).`,
        whenToUse: 'When the user wants a forgotten source back, or a tool said a source "exists but is forgotten". list_sources with include_forgotten: true shows forgotten sources.',
        notFor: 'Adding a new source: use save_source. Forgetting: use forget_source.',
        sideEffects: 'Makes the source and its passages searchable again for everyone in the workspace.',
        reversibility: 'Undo with forget_source. Restoring a source that is not forgotten changes nothing.',
        example: '{"id": "5f1c2f9e-8a53-4c1e-9a77-2b0f3c9d4e10"}',
      }),
      inputSchema: { id: sourceIdSchema },
      outputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ id }) => {
      try {
        const { workspaceId, audience } = await ctx.caller();
        try {
          const restored = await restoreSource(ctx.deps.db, workspaceId, id, { audience });
          const note = `Restored "${clipTitle(restored.title) ?? id}": ${restored.passages} passage(s) answer again.`;
          return toolSuccess({ id, title: clipTitle(restored.title), restored: true, passages_live: restored.passages, note }, note);
        } catch (error) {
          // Restoring twice is not a failure: the source is live, which is what was asked for.
          if (!isAppError(error, 'SOURCE_NOT_FORGOTTEN')) throw error;
          const source = await getSource(ctx.deps.db, workspaceId, id, { audience });
          const note = `"${clipTitle(source.title) ?? id}" is not forgotten: it already answers (${source.passages} passage(s)). Nothing changed.`;
          return toolSuccess({ id, title: clipTitle(source.title), restored: false, passages_live: source.passages, note }, note);
        }
      } catch (error) {
        return toolError(error, ctx.deps.logger, SOURCE_ID_NEXT_ACTIONS);
      }
    },
  );
}
