import type { ToolRegistry } from '../protocol/tool-registry.ts';
import { z } from 'zod';
import { getSource } from '@brain/ingest';
import { sourceLine, sourceSchema, toSourceView } from '../source-view.ts';
import { describeTool } from '../tool-description.ts';
import { SOURCE_ID_NEXT_ACTIONS, toolError, toolSuccess } from '../tool-result.ts';
import type { ToolContext } from './tool-context.ts';

export const sourceIdSchema = z.string().trim().min(1).max(100).describe('The source id (a UUID), from list_sources or search_brain.');

export function registerGetSource(server: ToolRegistry, ctx: ToolContext): void {
  server.registerTool(
    'get_source',
    {
      title: 'Get one source',
      description: describeTool({
        purpose: 'Show one saved source: title, URL, kind, indexing status (with the failure reason), passage count, who saved it and when, and whether it is forgotten.',
        whenToUse: 'After save_source, to check whether indexing finished (status ready) or failed; or to inspect a source a search result came from.',
        notFor: 'Finding sources by topic: use search_brain. Browsing all sources: use list_sources.',
        sideEffects: 'None: read-only.',
        reversibility: 'Nothing to undo.',
        example: '{"id": "5f1c2f9e-8a53-4c1e-9a77-2b0f3c9d4e10", "include_forgotten": false}',
      }),
      inputSchema: {
        id: sourceIdSchema,
        include_forgotten: z.boolean().default(false).describe('Show the source even if it is forgotten (otherwise that is an error that says so).'),
      },
      outputSchema: { source: sourceSchema },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ id, include_forgotten }) => {
      try {
        const { workspaceId, audience } = await ctx.caller();
        const source = toSourceView(await getSource(ctx.deps.db, workspaceId, id, { includeForgotten: include_forgotten, audience }));
        return toolSuccess({ source }, sourceLine(source));
      } catch (error) {
        return toolError(error, ctx.deps.logger, SOURCE_ID_NEXT_ACTIONS);
      }
    },
  );
}
