import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { AppError } from '@brain/errors';
import type { Logger } from '@brain/observability';
import { clip } from '../budget.ts';
import { toolError } from '../tool-result.ts';

const MAX_ISSUES = 5;

/**
 * Arguments that fail a tool's inputSchema, as a tool error (isError) the model can act on:
 * the stable code INVALID_ARGUMENTS, one clause per problem naming the argument, and a Next:
 * line. A tool error rather than a protocol error because the model chose the arguments and
 * can correct them; the specification lets servers report input validation either way.
 */
export function invalidArguments(tool: string, error: z.ZodError, logger: Logger): CallToolResult {
  const problems = error.issues.slice(0, MAX_ISSUES).map(describeIssue);
  if (error.issues.length > MAX_ISSUES) problems.push(`and ${error.issues.length - MAX_ISSUES} more`);
  return toolError(
    new AppError({
      code: 'INVALID_ARGUMENTS',
      message: `${tool}: arguments failed the input schema`,
      userMessage: `The arguments to ${tool} are not valid: ${problems.join('; ')}.`,
      nextStep: `Call ${tool} again with the arguments corrected; its inputSchema in tools/list gives every argument, type and bound.`,
      httpStatus: 400,
    }),
    logger,
  );
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') return `unknown argument${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${clip(k, 60)}"`).join(', ')}${path ? ` in ${path}` : ''}`;
  return `${path || 'arguments'}: ${clip(issue.message, 200)}`;
}
