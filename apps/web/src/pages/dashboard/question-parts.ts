import type { QuestionRow, SourceLabel, StageLatency } from '@brain/insights';
import { html, type SafeHtml } from '../../html/html.ts';
import { ms } from './layout.ts';

export function outcomeBadge(q: Pick<QuestionRow, 'grounded' | 'retrieved'>): SafeHtml {
  if (q.grounded) return html`<span class="badge good">answered</span>`;
  return html`<span class="badge bad">${q.retrieved.length === 0 ? 'nothing found' : 'not in sources'}</span>`;
}

export function feedbackBadge(feedback: 'up' | 'down' | null): SafeHtml | string {
  if (feedback === 'up') return html`<span class="badge good" title="Marked helpful">👍</span>`;
  if (feedback === 'down') return html`<span class="badge bad" title="Marked not helpful">👎</span>`;
  return '';
}

export function latencyLine(l: StageLatency): SafeHtml {
  return html`<span class="latency">embed ${ms(l.embed)} · search ${ms(l.search)} · generate ${ms(l.generate)} · total ${ms(l.total)}</span>`;
}

/** Each retrieved passage: its source, similarity, rank, and whether the answer cited it. */
export function retrievedList(q: Pick<QuestionRow, 'retrieved' | 'cited'>, sources: Map<string, SourceLabel>, limit = 20): SafeHtml {
  if (q.retrieved.length === 0) return html`<p class="meta">No passage reached the similarity floor.</p>`;
  const cited = new Set(q.cited.map((c) => c.chunkId));
  return html`<ol class="passages">${q.retrieved.slice(0, limit).map((r) => {
    const source = sources.get(r.artifactId);
    return html`<li data-similarity="${r.similarity ?? ''}">${source?.label ?? 'a deleted source'}${source?.forgotten ? ' (forgotten)' : ''}
— similarity ${r.similarity === null ? 'n/a (keyword match)' : r.similarity.toFixed(3)}${cited.has(r.chunkId) ? html` · <b>cited</b>` : ''}${r.inContext ? '' : ' · dropped by the context budget'}</li>`;
  })}</ol>`;
}

/** Who a source may be cited to, in the dashboard's words. */
export function audienceName(key: string, channelNames: ReadonlyMap<string, string> = new Map()): string {
  if (key === 'workspace') return 'everyone in the server';
  const channel = /^channel:([0-9]{1,20})$/.exec(key)?.[1];
  if (channel) return `readers of #${channelNames.get(channel) ?? channel}`;
  return 'unknown (citable nowhere in Discord until placed)';
}

/** What the answer to a question was allowed to cite, as its queries row recorded it. */
export function audienceLine(audience: QuestionRow['audience']): SafeHtml {
  if (!audience) return html`<span class="audience">Audience: not recorded (asked before audiences were recorded)</span>`;
  if (audience.kind === 'everything') return html`<span class="audience">Audience: every source (the operator’s view)</span>`;
  if (audience.keys.length === 0) return html`<span class="audience">Audience: no source could be cited</span>`;
  return html`<span class="audience">Audience: ${audience.keys.map((k) => audienceName(k)).join(', ')}</span>`;
}
