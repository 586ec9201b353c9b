import type { QuestionData } from '@brain/insights';
import { html, type SafeHtml } from '../../html/html.ts';
import { when } from './layout.ts';
import { audienceLine, feedbackBadge, latencyLine, outcomeBadge } from './question-parts.ts';

/** One question whole: the answer given, and every passage retrieved as it is now. */
export function questionPage(data: QuestionData): SafeHtml {
  const q = data.question;
  const cited = new Map(q.cited.map((c) => [c.chunkId, c.n]));
  return html`<p><a href="/dashboard/questions">← Questions</a></p>
<h1>${q.question}</h1>
<p class="meta">${outcomeBadge(q)} ${feedbackBadge(q.feedback)} ${when(q.createdAt)} · ${q.surface} · ${q.answerer}${q.model ? ` (${q.model})` : ''}${q.trimmed ? ' · context trimmed' : ''}</p>
<p class="meta">${latencyLine(q.latency)}</p>
<p class="meta" data-audience>${audienceLine(q.audience)}</p>
<h2>Answer</h2>
<blockquote style="white-space: pre-wrap">${q.answer ?? '(no answer recorded)'}</blockquote>
<h2>Retrieved passages (${q.retrieved.length})</h2>
${
  q.retrieved.length === 0
    ? html`<p class="muted">No passage reached the similarity floor.</p>`
    : html`<table><thead><tr><th>#</th><th>Source and passage</th><th>Similarity</th><th>Matched by</th><th>Cited</th></tr></thead><tbody>
${q.retrieved.map((r) => {
  const source = data.sources.get(r.artifactId);
  const passage = data.passages.get(r.chunkId);
  return html`<tr><td>${r.rank}</td><td><b>${source?.label ?? 'A deleted source'}</b>${source?.forgotten ? ' (forgotten)' : ''}
<div class="meta">${passage ? html`${passage.heading ? html`<i>${passage.heading}</i> — ` : ''}${passage.excerpt}` : 'This passage was replaced when the source was re-indexed.'}</div></td>
<td>${r.similarity === null ? 'n/a' : r.similarity.toFixed(3)}</td><td>${r.matchedBy.join(', ')}</td><td>${cited.has(r.chunkId) ? `[${cited.get(r.chunkId)}]` : r.inContext ? '' : 'dropped'}</td></tr>`;
})}</tbody></table>`
}`;
}
