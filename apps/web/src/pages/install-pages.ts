import { html, type SafeHtml } from '../html/html.ts';

export function installNotConfigured(publicUrl: string): SafeHtml {
  return html`<h1>Installing needs a Discord application</h1>
<p>This server does not know which Discord application to install yet. To add the bot to a server from here:</p>
<ol>
  <li>In the Discord developer portal, open your application → <b>OAuth2</b>, and add the redirect
      <code>${publicUrl}/install/callback</code>.</li>
  <li>Set <code>DISCORD_APPLICATION_ID</code> (the application id) and <code>DISCORD_CLIENT_SECRET</code>
      (OAuth2 → Client Secret), and <code>PUBLIC_URL</code> to the address people reach this server at.</li>
  <li>Restart, then open <code>${publicUrl}/install</code> again.</li>
</ol>
<p class="muted">For local tests, <code>DISCORD_OAUTH_BASE</code> and <code>DISCORD_API_BASE</code> point the flow at a fake Discord.</p>`;
}

export function installCanceled(): SafeHtml {
  return html`<h1>Nothing was added</h1><p>The bot was not added to a server. You can start again whenever you like.</p>
<a class="button" href="/install">Add to Discord</a>`;
}

export function installStateMismatch(): SafeHtml {
  return html`<h1>This install could not be confirmed</h1>
<p>The answer from Discord does not belong to an install started in this browser, or it took longer than ten minutes.
Nothing was changed.</p>
<a class="button" href="/install">Start again</a>`;
}
