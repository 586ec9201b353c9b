import type { ToolRegistry } from '../protocol/tool-registry.ts';
import { z } from 'zod';
import { listSources } from '@brain/ingest';
import { fitToBudget, noteAllowance } from '../budget.ts';
import { SOURCE_STATUSES, sourceLine, sourceSchema, toSourceView } from '../source-view.ts';
import { describeTool } from '../tool-description.ts';
import { toolError, toolSuccess } from '../tool-result.ts';
import type { ToolContext } from './tool-context.ts';

export const LIST_MAX_LIMIT = 50;

const outputSchema = {
  sources: z.array(sourceSchema),
  total: z.number().int().describe('Sources matching the filter, across all pages.'),
  next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page.'),
  note: z.string(),
};

export function registerListSources(server: ToolRegistry, ctx: ToolContext): void {
  server.registerTool(
    'list_sources',
    {
      title: 'List saved sources',
      description: describeTool({
        purpose: 'List the sources saved in this workspace, newest first, with their indexing status and passage counts.',
        whenToUse: 'To see what the brain knows, to find a source\'s id, or to check which sources are still queued, indexing, or failed.',
        notFor: 'Answering questions from the content: use search_brain. For one source you already have the id of, use get_source.',
        sideEffects: 'None: read-only.',
        reversibility: 'Nothing to undo.',
        example: '{"status": "failed", "limit": 20}',
      }),
      inputSchema: {
        status: z.enum(SOURCE_STATUSES).optional().describe('Only sources in this state.'),
        include_forgotten: z.boolean().default(false).describe('Also list forgotten sources (restorable with restore_source).'),
        limit: z.number().int().min(1).max(LIST_MAX_LIMIT).default(20).describe(`Sources per page, 1 to ${LIST_MAX_LIMIT}.`),
        cursor: z.string().max(500).optional().describe('next_cursor from the previous page.'),
      },
      outputSchema,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ status, include_forgotten, limit, cursor }) => {
      try {
        const { workspaceId, audience } = await ctx.caller();
        const query = { status, includeForgotten: include_forgotten, cursor, audience };
        let page = await listSources(ctx.deps.db, workspaceId, { ...query, limit });
        // A source's fields are bounded (title, error and URL lengths), so one always fits enough to show.
        // Each source costs its JSON and its line in the text block; the note is small and carried in both.
        const budget = fitToBudget(page.sources.map(toSourceView), ctx.budgetChars - noteAllowance(ctx.budgetChars), (source) => source, (s) => JSON.stringify(s).length + sourceLine(s).length + 1);
        if (budget.omitted > 0) {
          // The page's cursor points after its last source; the next page must start after the last one shown.
          page = await listSources(ctx.deps.db, workspaceId, { ...query, limit: budget.kept.length });
        }
        const sources = budget.kept;
        const note = [
          page.total === 0 ? 'No sources match. save_source adds one.' : `Showing ${sources.length} of ${page.total} source(s).`,
          budget.omitted > 0 ? `${budget.omitted} more on this page were cut to stay within the ${ctx.budgetChars}-character budget; next_cursor continues after the last one shown.` : '',
          page.nextCursor ? 'More pages: call list_sources again with cursor = next_cursor.' : '',
        ]
          .filter(Boolean)
          .join(' ');
        const structured = { sources, total: page.total, next_cursor: page.nextCursor, note };
        return toolSuccess(structured, [note, ...sources.map(sourceLine), page.nextCursor ? `next_cursor: ${page.nextCursor}` : ''].filter(Boolean).join('\n'));
      } catch (error) {
        return toolError(error, ctx.deps.logger, { CURSOR_INVALID: 'Call list_sources again without cursor to start from the first page.' });
      }
    },
  );
}
