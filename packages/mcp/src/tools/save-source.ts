import type { ToolRegistry } from '../protocol/tool-registry.ts';
import { z } from 'zod';
import { audienceChannelId, EVERYTHING } from '@brain/db';
import { AppError } from '@brain/errors';
import { getSource, saveSource, type SourceInput } from '@brain/ingest';
import { sourceLine, sourceSchema, toSourceView } from '../source-view.ts';
import { describeTool } from '../tool-description.ts';
import { toolError, toolSuccess } from '../tool-result.ts';
import { requireEntitlement } from './require-entitlement.ts';
import type { ToolContext } from './tool-context.ts';

/** Longer text belongs in a file or a URL; this also keeps a request well under the HTTP body limit. */
export const SAVE_TEXT_MAX_CHARS = 200_000;

const outputSchema = {
  source: sourceSchema,
  created: z.boolean().describe('False when this URL or text was saved before: it is refreshed, never duplicated.'),
  restored: z.boolean().describe('True when it had been forgotten and saving it again brought it back.'),
  note: z.string(),
};

export function registerSaveSource(server: ToolRegistry, ctx: ToolContext): void {
  server.registerTool(
    'save_source',
    {
      title: 'Save a source',
      description: describeTool({
        purpose: 'Add a web page (url) or a piece of text (text) to this workspace\'s brain, so later searches and answers can use it.',
        whenToUse: 'When the user asks to remember, save or add a link or some text for the team. Give exactly one of url or text.',
        notFor: 'Bringing back a forgotten source: use restore_source (saving the same URL again also restores it). Checking progress: use get_source.',
        sideEffects: 'Creates or refreshes one source and queues its indexing; a URL is then fetched from the web by the worker. Searchable once status is ready (seconds to minutes).',
        reversibility: 'Idempotent: the same URL or text is the same source, refreshed, never duplicated. Undo with forget_source.',
        example: '{"url": "https://docs.example.com/deploy", "title": "Deploy guide"}',
      }),
      inputSchema: {
        url: z.string().trim().max(2048).optional().describe('An http(s) URL to fetch and index.'),
        text: z.string().max(SAVE_TEXT_MAX_CHARS).optional().describe(`Text to save as it is, up to ${SAVE_TEXT_MAX_CHARS} characters.`),
        title: z.string().trim().max(300).optional().describe('A title to cite it by (default: the page title, or the text\'s first line).'),
        channel: z
          .string()
          .regex(/^[0-9]{1,20}$/)
          .optional()
          .describe('A Discord channel id: the source is then cited only where that channel\'s readers may see it. Default: the token\'s channel, or workspace-wide for a public token.'),
      },
      outputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async ({ url, text, title, channel }) => {
      try {
        const input = sourceInput(url, text, title);
        const caller = await ctx.caller();
        await requireEntitlement(ctx, caller.workspaceId, 'save');
        // A channel token's saves stay in its channel unless it names another: never wider than it reads.
        const tokenChannel = caller.audience.kind === 'keys' ? caller.audience.keys.map(audienceChannelId).find((id) => id !== undefined) : undefined;
        const channelId = channel ?? tokenChannel;
        const origin = channelId ? { guildId: null, channelId, thread: false, parentId: null, privateThread: false } : undefined;
        const result = await saveSource(ctx.deps.db, { workspaceId: caller.workspaceId, input, savedBy: `mcp:${caller.name}`, origin }, ctx.deps.saveOptions);
        const saved = result.artifacts[0];
        if (!saved) throw new Error('saveSource returned no artifact');
        const source = toSourceView(await getSource(ctx.deps.db, caller.workspaceId, saved.artifactId, { includeForgotten: true, audience: EVERYTHING }));
        const note =
          source.status === 'ready'
            ? `${saved.created ? 'Saved' : 'Already saved; refreshing'}: it is searchable now and a refresh is queued.`
            : `${saved.created ? 'Saved' : 'Already saved'}${saved.restored ? ' (it had been forgotten: restored)' : ''}; indexing is queued. Call get_source with id ${source.id} to see when status becomes ready.`;
        return toolSuccess({ source, created: saved.created, restored: saved.restored, note }, `${note}\n${sourceLine(source)}`);
      } catch (error) {
        return toolError(error, ctx.deps.logger);
      }
    },
  );
}

function sourceInput(url: string | undefined, text: string | undefined, title: string | undefined): SourceInput {
  const hasUrl = url !== undefined && url !== '';
  const hasText = text !== undefined && text.trim() !== '';
  if (hasUrl === hasText) {
    throw new AppError({
      code: 'SAVE_INPUT_INVALID',
      message: hasUrl ? 'Both url and text were given.' : 'Neither url nor text was given.',
      userMessage: hasUrl ? 'save_source takes a url or a text, not both.' : 'save_source needs a url or a text to save.',
      nextStep: 'Call save_source again with exactly one of url or text.',
      httpStatus: 400,
    });
  }
  return hasUrl ? { kind: 'url', url, title } : { kind: 'text', text: text ?? '', title };
}
