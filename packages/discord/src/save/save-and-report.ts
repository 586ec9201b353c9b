import { saveSource, type SourceInput } from '@brain/ingest';
import type { APIInteraction } from 'discord-api-types/v10';
import { originOfInteraction } from '../audience/invoking-channel.ts';
import type { RunContext } from '../interactions/types.ts';
import { saveResultMessage, savingMessage } from '../render/save-messages.ts';

/**
 * The common tail of /save and "Save to brain": write the artifacts and their jobs, edit the
 * reply to say it is indexing, wait for the worker, and edit it again with the outcome. The
 * wait ends early when the token window is about to close or the process drains; the last edit
 * then says the source is still indexing, so the reply never stays at "thinking…".
 */
export async function saveAndReport(ctx: RunContext<APIInteraction>, input: SourceInput, what: string): Promise<void> {
  const savedAtMs = Date.now();
  const { artifacts, skipped } = await saveSource(
    ctx.deps.db,
    {
      workspaceId: ctx.workspaceId,
      input,
      savedBy: `discord:${ctx.user.id}`,
      // Its readers are the channel's (or thread's) it was saved in, whatever the save path.
      origin: originOfInteraction(ctx.interaction, input.kind === 'discord_message' ? [input.messageId] : undefined),
    },
    { ...(ctx.deps.checkUrl ? { checkUrl: ctx.deps.checkUrl } : {}), rateLimits: ctx.deps.saveRateLimits },
  );
  await ctx.responder.edit(savingMessage(what));
  const stopWaiting = AbortSignal.any([ctx.signal, ctx.signals.draining]);
  const progress = await ctx.deps.watcher.wait(
    ctx.workspaceId,
    artifacts.map((a) => a.artifactId),
    stopWaiting,
  );
  // Known even if the wait was cut short before the first look.
  const final = progress.length > 0 ? progress : artifacts.map((a) => ({ id: a.artifactId, title: a.title, url: a.url, fileName: null, status: a.status, passages: 0, errorCode: null, errorMessage: null, pending: true, lastError: null }));
  await ctx.responder.edit(saveResultMessage(final, skipped, savedAtMs));
}
