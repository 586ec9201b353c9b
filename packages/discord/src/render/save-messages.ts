import type { SkippedAttachment } from '@brain/ingest';
import type { ArtifactProgress } from '../queries/load-artifact-progress.ts';
import type { OutgoingMessage } from '../rest/outgoing-message.ts';
import { notice } from './notice.ts';
import { inert, noPreview, oneLine, truncate } from './text.ts';

function label(p: Pick<ArtifactProgress, 'title' | 'url' | 'fileName'>): string {
  return `*${inert(truncate(oneLine(p.title ?? p.fileName ?? p.url ?? 'Untitled source'), 120))}*`;
}

function link(p: Pick<ArtifactProgress, 'url'>): string {
  return p.url ? ` · ${noPreview(p.url)}` : '';
}

/** The first edit of /save: what is being saved, while the worker fetches and indexes it. */
export function savingMessage(what: string): OutgoingMessage {
  return notice(`⏳ Saving ${what} — fetching and indexing…`);
}

/** The last edit of /save: each source saved (with its passages) or failed (with the reason). */
export function saveResultMessage(progress: ArtifactProgress[], skipped: SkippedAttachment[], savedAtMs: number): OutgoingMessage {
  const lines = progress.map((p) => {
    if (p.status === 'failed' && !p.pending) {
      const reason = inert(oneLine(p.errorMessage ?? 'unknown reason'));
      return `❌ Couldn't save ${label(p)}${link(p)}: ${reason}${p.errorCode ? ` (\`${p.errorCode}\`)` : ''}`;
    }
    if (p.status === 'ready' && !p.pending) {
      const refreshFailed = p.lastError && Date.parse(p.lastError.at) >= savedAtMs - 1000;
      if (refreshFailed && p.lastError) {
        return `⚠️ Kept the earlier version of ${label(p)} — ${passages(p.passages)}; refreshing it failed: ${inert(oneLine(p.lastError.message))}${link(p)}`;
      }
      return `✅ Saved ${label(p)} — ${passages(p.passages)}${link(p)}`;
    }
    return `⏳ ${label(p)} is still indexing (${p.status}). \`/sources\` shows when it is ready.${link(p)}`;
  });
  for (const s of skipped) lines.push(`↪️ Skipped ${inert(s.fileName)}: ${inert(s.reason)}`);
  if (lines.length === 0) lines.push('⚠️ Nothing was saved.');
  return notice(lines.join('\n'));
}

function passages(n: number): string {
  return `${n} passage${n === 1 ? '' : 's'}`;
}
