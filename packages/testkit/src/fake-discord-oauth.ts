import { randomBytes } from 'node:crypto';
import { startFakeHttpServer, type FakeHttpServer } from './fake-http-server.ts';

export interface FakeGuild {
  id: string;
  name: string;
}

export interface FakeDiscordOAuth {
  /** The OAuth base (DISCORD_OAUTH_BASE): serves /oauth2/authorize. */
  url: string;
  /** The API base (DISCORD_API_BASE): serves /v10/oauth2/token. */
  apiBase: string;
  server: FakeHttpServer;
  /** The server the next authorization picks. */
  guild: FakeGuild;
  /** What a person clicking "Authorize" on the given authorize URL would be sent back to. */
  authorize(authorizeUrl: string): string;
  close(): Promise<void>;
}

interface Grant {
  redirectUri: string;
  guild: FakeGuild;
  used: boolean;
}

/**
 * Discord's bot authorization flow, as far as an install needs it: an authorize page whose
 * "Authorize" link returns to redirect_uri with code, state, guild_id and permissions, and a
 * token endpoint that takes the code once (client credentials by HTTP Basic or in the form)
 * and answers like Discord does for a bot-scope grant, with the guild in the token response.
 */
export async function startFakeDiscordOAuth(options: { clientId: string; clientSecret: string; guild?: FakeGuild }): Promise<FakeDiscordOAuth> {
  const server = await startFakeHttpServer('discord-oauth');
  const grants = new Map<string, Grant>();
  const fake: FakeDiscordOAuth = {
    url: server.url,
    apiBase: `${server.url}/api`,
    server,
    guild: options.guild ?? { id: '912345678901234567', name: 'Fake Guild' },
    authorize(authorizeUrl) {
      const query = new URL(authorizeUrl).searchParams;
      const problem = checkAuthorizeQuery(query, options.clientId);
      if (problem) throw new Error(`fake Discord refuses the authorize URL: ${problem}`);
      return callbackFor(query);
    },
    close: () => server.close(),
  };

  function callbackFor(query: URLSearchParams): string {
    const code = randomBytes(15).toString('base64url');
    const redirectUri = query.get('redirect_uri') ?? '';
    grants.set(code, { redirectUri, guild: { ...fake.guild }, used: false });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('state', query.get('state') ?? '');
    back.searchParams.set('guild_id', fake.guild.id);
    back.searchParams.set('permissions', query.get('permissions') ?? '0');
    return back.toString();
  }

  server.on('GET', '/oauth2/authorize', (req) => {
    const problem = checkAuthorizeQuery(req.query, options.clientId);
    if (problem) return { status: 400, body: `<!doctype html><p id="error">${problem}</p>`, headers: { 'content-type': 'text/html' } };
    const callback = callbackFor(req.query).replaceAll('&', '&amp;').replaceAll('"', '&quot;');
    const cancel = new URL(req.query.get('redirect_uri') ?? '');
    cancel.searchParams.set('error', 'access_denied');
    cancel.searchParams.set('state', req.query.get('state') ?? '');
    const html = `<!doctype html><title>Discord (fake)</title>
      <h1>Add the app to ${fake.guild.name.replaceAll('<', '&lt;')}</h1>
      <p>Scopes: ${req.query.get('scope')?.replaceAll('<', '&lt;')}; permissions ${req.query.get('permissions')?.replaceAll('<', '&lt;')}</p>
      <a id="authorize" href="${callback}">Authorize</a>
      <a id="cancel" href="${cancel.toString().replaceAll('&', '&amp;')}">Cancel</a>`;
    return { status: 200, body: html, headers: { 'content-type': 'text/html; charset=utf-8' } };
  });

  server.on('POST', '/api/v10/oauth2/token', (req) => {
    const form = req.form ?? new URLSearchParams();
    const basic = /^Basic (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    const [id, secret] = basic ? Buffer.from(basic, 'base64').toString().split(':') : [form.get('client_id'), form.get('client_secret')];
    if (id !== options.clientId || secret !== options.clientSecret) {
      return { status: 401, body: { error: 'invalid_client' } };
    }
    const grant = grants.get(form.get('code') ?? '');
    if (form.get('grant_type') !== 'authorization_code' || !grant || grant.used || grant.redirectUri !== form.get('redirect_uri')) {
      return { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid "code" in request.' } };
    }
    grant.used = true;
    return {
      body: {
        access_token: randomBytes(15).toString('base64url'),
        token_type: 'Bearer',
        expires_in: 604800,
        refresh_token: randomBytes(15).toString('base64url'),
        scope: 'bot applications.commands',
        guild: { id: grant.guild.id, name: grant.guild.name, icon: null, owner_id: '80351110224678912', features: [] },
      },
    };
  });

  return fake;
}

function checkAuthorizeQuery(query: URLSearchParams, clientId: string): string | undefined {
  if (query.get('client_id') !== clientId) return 'unknown client_id';
  if (query.get('response_type') !== 'code') return 'response_type must be code';
  if (!query.get('redirect_uri')) return 'redirect_uri is missing';
  if (!(query.get('scope') ?? '').split(' ').includes('bot')) return 'the bot scope is missing';
  if (!query.get('state')) return 'state is missing';
  return undefined;
}
