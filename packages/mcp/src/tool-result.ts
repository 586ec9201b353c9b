import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { coerceError } from '@brain/errors';
import type { Logger } from '@brain/observability';

/**
 * A successful call: the structured result (validated against the tool's outputSchema by the
 * SDK) and the same facts as text, for clients that only show text to the model.
 */
export function toolSuccess(structured: Record<string, unknown>, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/**
 * A failure the agent can act on: `isError`, the stable code, what happened, and the next call
 * to make. `nextActions` overrides an error's own next step with one phrased in tool calls.
 */
export function toolError(error: unknown, logger: Logger, nextActions: Partial<Record<string, string>> = {}): CallToolResult {
  const appError = coerceError(error);
  if (appError.code === 'INTERNAL' || appError.httpStatus >= 500) logger.error({ err: error, code: appError.code }, 'mcp: tool failed');
  const next = nextActions[appError.code] ?? appError.nextStep ?? (appError.retryable ? 'Try the same call again in a minute.' : 'Do not retry this call unchanged.');
  return { isError: true, content: [{ type: 'text', text: `Error ${appError.code}: ${appError.userMessage}\nNext: ${next}` }] };
}

/** Next steps shared by the tools that take a source id. */
export const SOURCE_ID_NEXT_ACTIONS = {
  SOURCE_NOT_FOUND: 'No source with that id exists in this workspace. Call list_sources (with include_forgotten: true to see forgotten ones) to find the right id.',
  SOURCE_FORGOTTEN:
    'The source exists but is forgotten: call restore_source with the same id to bring it back into answers, or get_source with include_forgotten: true to read its details.',
} as const;
