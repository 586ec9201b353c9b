import { QUESTION_FILTERS, type QuestionFilter, type QuestionsData } from '@brain/insights';
import { html, raw, type SafeHtml } from '../../html/html.ts';
import { when } from './layout.ts';
import { audienceLine, feedbackBadge, latencyLine, outcomeBadge, retrievedList } from './question-parts.ts';

const FILTER_LABELS: Record<QuestionFilter, string> = { all: 'All', unanswered: 'Unanswered', down: '👎 Not helpful' };

/** Recent questions, newest first, each with its passages, similarities, latency and feedback. */
export function questionsPage(data: QuestionsData, filter: QuestionFilter): SafeHtml {
  const { page } = data;
  const next = page.nextCursor ? `/dashboard/questions?filter=${filter}&after=${page.nextCursor}` : null;
  return html`<h1>Questions</h1>
<p class="filters">${QUESTION_FILTERS.map(
    (f) => html`<a href="/dashboard/questions?filter=${f}"${f === filter ? raw(' aria-current="page"') : ''}>${FILTER_LABELS[f]}</a>`,
  )}<span class="meta" id="questions-total">${page.total} ${page.total === 1 ? 'question' : 'questions'}</span></p>
${
  page.questions.length === 0
    ? html`<p class="muted">${filter === 'all' ? 'Nobody has asked anything yet. Try /ask in Discord or the playground.' : 'None.'}</p>`
    : page.questions.map(
        (q) => html`<article class="q" data-question-id="${q.id}">
<h3><a href="/dashboard/questions/${q.id}">${q.question}</a></h3>
<div class="meta">${outcomeBadge(q)} ${feedbackBadge(q.feedback)} ${when(q.createdAt)} · ${q.surface} · ${q.answerer}${q.model ? ` (${q.model})` : ''} · ${latencyLine(q.latency)}</div>
<div class="meta" data-audience>${audienceLine(q.audience)}</div>
${retrievedList(q, data.sources, 5)}
</article>`,
      )
}
${next ? html`<p><a class="button" href="${next}">Older questions</a></p>` : ''}`;
}
