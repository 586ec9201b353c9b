import { AppError } from '@brain/errors';

/**
 * The bot needs no permission to answer slash commands over HTTP; these four cover what it
 * does beyond that, and nothing more: View Channels (1 << 10) and Send Messages (1 << 11) for a
 * channel message when an interaction token has expired, Embed Links (1 << 14) for the cited
 * sources in such a message, and Read Message History (1 << 16) for "Save thread to brain",
 * which reads a thread's messages (without it Discord returns none, and no error).
 */
export const BOT_PERMISSIONS = ((1n << 10n) | (1n << 11n) | (1n << 14n) | (1n << 16n)).toString();
export const INSTALL_SCOPES = 'bot applications.commands';

export interface InstallUrlInput {
  /** e.g. https://discord.com (tests: the fake's URL). */
  oauthBase: string;
  clientId: string;
  redirectUri: string;
  state: string;
}

/** Discord's authorize page for adding the bot to a server, with a code grant back to us. */
export function buildInstallUrl(input: InstallUrlInput): string {
  const url = new URL('/oauth2/authorize', `${input.oauthBase}/`);
  url.search = new URLSearchParams({
    client_id: input.clientId,
    scope: INSTALL_SCOPES,
    permissions: BOT_PERMISSIONS,
    response_type: 'code',
    redirect_uri: input.redirectUri,
    state: input.state,
    integration_type: '0',
  }).toString();
  return url.toString();
}

export interface InstalledGuild {
  id: string;
  name: string;
}

export interface ExchangeInstallCodeInput {
  /** The API base without version, e.g. https://discord.com/api. */
  apiBase: string;
  clientId: string;
  clientSecret: string;
  code: string;
  redirectUri: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

interface TokenResponse {
  guild?: { id?: unknown; name?: unknown };
  scope?: unknown;
}

/**
 * Trades the callback's code for the install's truth. The `guild_id` in the callback's query is
 * only a hint; the token response of a bot-scope grant carries the guild itself, so that is the
 * one a workspace is bound to.
 */
export async function exchangeInstallCode(input: ExchangeInstallCodeInput): Promise<InstalledGuild> {
  const doFetch = input.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(`${input.apiBase.replace(/\/+$/, '')}/v10/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${input.clientId}:${input.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri }),
      signal: AbortSignal.timeout(input.timeoutMs ?? 10_000),
    });
  } catch (error) {
    throw new AppError({
      code: 'DISCORD_UNREACHABLE',
      message: `Could not reach Discord to finish the install: ${(error as Error).message}`,
      userMessage: 'Discord did not answer while we finished adding the bot.',
      nextStep: 'Try adding it again in a minute.',
      httpStatus: 502,
      retryable: true,
      cause: error,
    });
  }
  const body = (await response.json().catch(() => ({}))) as TokenResponse & { error?: unknown };
  if (response.status === 400 || response.status === 401) {
    throw new AppError({
      code: 'DISCORD_CODE_INVALID',
      message: `Discord refused the install code (${response.status} ${typeof body.error === 'string' ? body.error : 'no error code'}).`,
      userMessage: 'This install link has already been used or has expired.',
      nextStep: 'Start again from "Add to Discord".',
      httpStatus: 400,
    });
  }
  if (!response.ok) {
    throw new AppError({
      code: 'DISCORD_UNREACHABLE',
      message: `Discord answered ${response.status} to the install code exchange.`,
      userMessage: 'Discord had a problem while we finished adding the bot.',
      nextStep: 'Try adding it again in a minute.',
      httpStatus: 502,
      retryable: response.status >= 500 || response.status === 429,
    });
  }
  const id = body.guild?.id;
  const name = body.guild?.name;
  if (typeof id !== 'string' || !/^\d{1,20}$/.test(id)) {
    throw new AppError({
      code: 'DISCORD_NO_GUILD',
      message: 'The install grant names no server: the bot scope was not granted.',
      userMessage: 'Discord did not say which server the bot was added to.',
      nextStep: 'Start again from "Add to Discord" and pick a server.',
      httpStatus: 400,
    });
  }
  return { id, name: typeof name === 'string' ? name.slice(0, 100) : '' };
}
