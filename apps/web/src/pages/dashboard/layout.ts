import type { FastifyReply } from 'fastify';
import { html, raw, type SafeHtml } from '../../html/html.ts';
import type { SignedIn } from '../../routes/dashboard/context.ts';
import { sendPage } from '../send-page.ts';

export type Section = 'overview' | 'questions' | 'sources' | 'auto-answers' | 'settings';

const SECTIONS: { id: Section; label: string; href: string }[] = [
  { id: 'overview', label: 'Overview', href: '/dashboard' },
  { id: 'questions', label: 'Questions', href: '/dashboard/questions' },
  { id: 'sources', label: 'Sources', href: '/dashboard/sources' },
  { id: 'auto-answers', label: 'Auto-answers', href: '/dashboard/auto-answers' },
  { id: 'settings', label: 'Settings', href: '/dashboard/settings' },
];

const STYLE = raw(`
  nav.dash { display: flex; flex-wrap: wrap; gap: .25rem 1rem; align-items: center; border-bottom: 1px solid var(--line); padding-bottom: .6rem; margin-bottom: 1.2rem; }
  nav.dash a { color: var(--fg); text-decoration: none; padding: .2rem 0; } nav.dash a[aria-current=page] { font-weight: 700; border-bottom: 2px solid var(--accent); }
  nav.dash .who { margin-left: auto; color: var(--muted); font-size: .85rem; } nav.dash form { margin: 0; display: inline; }
  button.link { background: none; color: var(--accent); padding: 0; margin: 0; font-weight: 500; text-decoration: underline; }
  .cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(9.5rem, 1fr)); gap: .75rem; margin: 1rem 0 1.5rem; }
  .card { border: 1px solid var(--line); border-radius: 10px; padding: .7rem .85rem; }
  .card .n { font-size: 1.6rem; font-weight: 700; line-height: 1.2; } .card .l { color: var(--muted); font-size: .85rem; }
  h2 { font-size: 1.1rem; margin: 1.6rem 0 .4rem; }
  figure { margin: .5rem 0 1.5rem; } figcaption { color: var(--muted); font-size: .85rem; margin-top: .3rem; }
  svg.chart { width: 100%; height: auto; max-width: 100%; font: 11px system-ui, sans-serif; }
  svg.chart text { fill: var(--muted); } svg.chart .axis { stroke: var(--line); }
  svg.chart .bar { fill: var(--accent); opacity: .35; } svg.chart .bar.cited { opacity: .9; }
  svg.chart .line { fill: none; stroke: var(--bad); stroke-width: 2; } svg.chart .dot { fill: var(--bad); }
  svg.chart .floor { stroke: var(--bad); stroke-dasharray: 4 3; } svg.chart .vol { fill: var(--line); }
  svg.chart .p50 { fill: var(--accent); } svg.chart .p95 { fill: var(--accent); opacity: .55; } svg.chart .p99 { fill: var(--accent); opacity: .25; }
  .badge { display: inline-block; font-size: .75rem; font-weight: 600; padding: .05rem .45rem; border-radius: 999px; border: 1px solid var(--line); white-space: nowrap; }
  .badge.bad { color: var(--bad); border-color: var(--bad); } .badge.good { color: var(--good); border-color: var(--good); }
  .filters { display: flex; flex-wrap: wrap; gap: .4rem 1rem; margin: .3rem 0 1rem; font-size: .92rem; }
  .filters a[aria-current=page] { font-weight: 700; color: var(--fg); }
  .inline { display: inline; margin: 0; } .inline button { margin: 0 .3rem 0 0; padding: .3rem .65rem; font-size: .85rem; }
  .q { border-bottom: 1px solid var(--line); padding: .7rem 0; } .q h3 { font-size: 1rem; margin: 0 0 .2rem; } .q h3 a { color: var(--fg); }
  .meta { color: var(--muted); font-size: .85rem; } .passages { font-size: .85rem; margin: .35rem 0 0; padding-left: 1.2rem; }
  input[type=number], input[type=text] { padding: .45rem .6rem; font: inherit; border: 1px solid var(--line); border-radius: 8px; background: var(--bg); color: var(--fg); width: 10rem; }
  .secret { font-size: 1rem; padding: .5rem; display: block; margin: .4rem 0; user-select: all; }
  .row { display: flex; flex-wrap: wrap; gap: 1rem; align-items: end; } .row label { font-weight: 600; }
  .notice { border-left: 3px solid var(--good); padding: .3rem .8rem; margin: .5rem 0 1rem; }
  .notice.bad { border-color: var(--bad); }
`);

export interface DashboardView {
  title: string;
  section: Section;
  signedIn: SignedIn;
  body: SafeHtml;
  /** A one-line outcome of the last action (forgot, saved…), shown above the page. */
  notice?: { text: string; bad?: boolean } | undefined;
}

/** A dashboard page: the section nav, who is signed in, a logout button (a POST), then the page. */
export function sendDashboardPage(reply: FastifyReply, status: number, view: DashboardView): FastifyReply {
  const nav = html`<nav class="dash" aria-label="Dashboard">
${SECTIONS.map((s) => html`<a href="${s.href}"${s.id === view.section ? raw(' aria-current="page"') : ''}>${s.label}</a>`)}
<span class="who">${view.signedIn.workspaceName} · ${view.signedIn.session.email}
<form class="inline" method="post" action="/dashboard/logout"><input type="hidden" name="csrf" value="${view.signedIn.csrf('logout')}"><button class="link" type="submit">Log out</button></form></span>
</nav>`;
  const notice = view.notice ? html`<p class="notice${view.notice.bad ? raw(' bad') : ''}" role="status">${view.notice.text}</p>` : '';
  return sendPage(reply, status, view.title, html`${nav}${notice}${view.body}`, { wide: true, style: STYLE });
}

export const percent = (x: number | null, digits = 0): string => (x === null ? '–' : `${(x * 100).toFixed(digits)} %`);
export const ms = (x: number | null): string => (x === null ? '–' : x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${Math.round(x)} ms`);
export const when = (d: Date): string => d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
