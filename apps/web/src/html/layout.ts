import { html, raw, type SafeHtml } from './html.ts';

const STYLE = raw(`
  :root { color-scheme: light dark; --fg: #1d1f23; --muted: #5b6270; --bg: #fbfbfc; --card: #fff; --line: #dfe2e8; --accent: #4655d4; --bad: #b4233a; --good: #17794b; }
  @media (prefers-color-scheme: dark) { :root { --fg: #e8eaee; --muted: #a3a9b5; --bg: #16171b; --card: #1f2127; --line: #343741; --accent: #8b96ff; --bad: #ff7b8e; --good: #5fd49a; } }
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
  main { max-width: 34rem; margin: 8vh auto; padding: 2rem; background: var(--card); border: 1px solid var(--line); border-radius: 12px; }
  h1 { font-size: 1.4rem; margin: 0 0 .75rem; line-height: 1.3; }
  p, li { color: var(--fg); } .muted { color: var(--muted); font-size: .92rem; }
  .brand { font-weight: 600; color: var(--accent); letter-spacing: .01em; margin-bottom: 1.25rem; font-size: .95rem; }
  form { margin: 1.25rem 0 .5rem; } label { display: block; font-weight: 600; margin-bottom: .35rem; }
  input[type=email] { width: 100%; padding: .65rem .75rem; font: inherit; border: 1px solid var(--line); border-radius: 8px; background: var(--bg); color: var(--fg); }
  button, .button { display: inline-block; margin-top: .85rem; padding: .65rem 1.1rem; font: inherit; font-weight: 600; border: 0; border-radius: 8px; background: var(--accent); color: #fff; text-decoration: none; cursor: pointer; }
  .error { color: var(--bad); font-weight: 600; } .ok { color: var(--good); font-weight: 600; }
  code { font-size: .9em; padding: .1em .3em; border-radius: 4px; background: var(--bg); border: 1px solid var(--line); word-break: break-all; }
  table { width: 100%; border-collapse: collapse; font-size: .9rem; } td, th { text-align: left; padding: .4rem .3rem; border-bottom: 1px solid var(--line); vertical-align: top; }
  ol { padding-left: 1.2rem; }
  main.wide { max-width: 64rem; margin-top: 3vh; }
`);

export interface PageOptions {
  title: string;
  body: SafeHtml;
  /** Seconds after which the browser reloads the page (waiting for a webhook), without JavaScript. */
  refreshSeconds?: number;
  wide?: boolean;
  /** More trusted CSS for this page (the dashboard's), after the shared rules. */
  style?: SafeHtml;
}

/** A whole page: no scripts, no external resources, readable as plain HTML. */
export function page(options: PageOptions): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
${options.refreshSeconds ? html`<meta http-equiv="refresh" content="${options.refreshSeconds}">` : ''}
<title>${options.title} · Company Brain</title>
<style>${STYLE}${options.style ?? ''}</style>
</head>
<body>
<main${options.wide ? raw(' class="wide"') : ''}>
<div class="brand">Company Brain</div>
${options.body}
</main>
</body>
</html>
`.value;
}
