import type { SourceSummary } from '@brain/ingest';
import { inert, oneLine, titledLink, truncate } from './text.ts';

const STATUS_ICON: Record<SourceSummary['status'], string> = { queued: '🕓', indexing: '⏳', ready: '✅', failed: '❌' };

/** The title a person recognises a source by. */
export function sourceTitle(s: Pick<SourceSummary, 'title' | 'url' | 'fileName'>): string {
  return s.title ?? s.fileName ?? s.url ?? 'Untitled source';
}

/** One line of /sources: status, linked title, passages or the failure's reason, and its id for /forget. */
export function sourceLine(s: SourceSummary): string {
  const status =
    s.status === 'failed'
      ? `failed: ${inert(truncate(oneLine(s.errorMessage ?? s.errorCode ?? 'unknown reason'), 140))}`
      : s.status === 'ready'
        ? `${s.passages} passage${s.passages === 1 ? '' : 's'}`
        : s.status;
  const forgotten = s.forgottenAt ? ' · forgotten' : '';
  return `${STATUS_ICON[s.status]} ${titledLink(sourceTitle(s), s.url, 90)} — ${status}${forgotten} · ${audienceLabel(s.audience)} · \`${s.id.slice(0, 8)}\``;
}

/** Who a source may be cited to: everyone, a channel's readers (a channel mention, which never pings), or nobody yet. */
export function audienceLabel(audience: string): string {
  if (audience === 'workspace') return 'everyone';
  const channel = /^channel:([0-9]{1,20})$/.exec(audience)?.[1];
  if (channel) return `<#${channel}>`;
  return 'audience unknown (an admin sets it with `/audience`)';
}
