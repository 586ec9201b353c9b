import { AppError } from '@brain/errors';
import type { ToolContext } from './tool-context.ts';

/**
 * Spends one save or ask of the caller's workspace through billing, or refuses the call with
 * billing's own message (which carries the checkout link) before any work is done.
 */
export async function requireEntitlement(ctx: ToolContext, workspaceId: string, action: 'save' | 'ask'): Promise<void> {
  const decision = await ctx.deps.checkEntitlement(workspaceId, action);
  if (decision.allowed) return;
  throw new AppError({
    code: decision.code ?? 'NOT_ENTITLED',
    message: `Billing refused an MCP ${action} for workspace ${workspaceId}.`,
    userMessage: decision.message,
    nextStep: 'Do not retry: tell the user, and pass on the subscribe link above to an admin of their server.',
    httpStatus: 402,
  });
}
