import { afterAll, beforeAll, expect, it } from 'vitest';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { isAppError } from '@brain/errors';
import { closedLoopbackUrl, startFakeDiscordOAuth, type FakeDiscordOAuth } from '@brain/testkit';
import { BOT_PERMISSIONS, buildInstallUrl, exchangeInstallCode } from '../src/index.ts';
import { devAccounts, nextGuildId } from './helpers.ts';

const clientId = '123456789012345678';
const clientSecret = 'discord-client-secret';
const redirectUri = 'https://brain.example.com/install/callback';

let discord: FakeDiscordOAuth;
beforeAll(async () => {
  discord = await startFakeDiscordOAuth({ clientId, clientSecret });
});
afterAll(() => discord.close());

it('builds the authorize URL: bot + applications.commands, minimal permissions, code grant, state', () => {
  const url = new URL(buildInstallUrl({ oauthBase: 'https://discord.com', clientId, redirectUri, state: 's1' }));
  expect(url.origin + url.pathname).toBe('https://discord.com/oauth2/authorize');
  expect(Object.fromEntries(url.searchParams)).toMatchObject({
    client_id: clientId,
    scope: 'bot applications.commands',
    permissions: BOT_PERMISSIONS,
    response_type: 'code',
    redirect_uri: redirectUri,
    state: 's1',
  });
  // View Channels, Send Messages, Embed Links: nothing administrative.
  expect(BOT_PERMISSIONS).toBe(String(1024 + 2048 + 16384 + 65536));
});

it('exchanges the code for the guild from the token response, once', async () => {
  discord.guild = { id: nextGuildId(), name: 'Readers' };
  const callback = new URL(discord.authorize(buildInstallUrl({ oauthBase: discord.url, clientId, redirectUri, state: 'x' })));
  const code = callback.searchParams.get('code') ?? '';
  const exchange = () => exchangeInstallCode({ apiBase: discord.apiBase, clientId, clientSecret, code, redirectUri });
  expect(await exchange()).toEqual({ id: discord.guild.id, name: 'Readers' });
  const token = discord.server.requests.find((r) => r.path === '/api/v10/oauth2/token');
  expect(token?.headers.authorization).toBe(`Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`);
  expect(token?.form?.get('grant_type')).toBe('authorization_code');

  const replay = await exchange().catch((e: unknown) => e);
  expect(isAppError(replay, 'DISCORD_CODE_INVALID')).toBe(true);
  const wrongSecret = await exchangeInstallCode({ apiBase: discord.apiBase, clientId, clientSecret: 'nope', code, redirectUri }).catch((e: unknown) => e);
  expect(isAppError(wrongSecret, 'DISCORD_CODE_INVALID')).toBe(true);
  const down = await exchangeInstallCode({ apiBase: `${await closedLoopbackUrl()}/api`, clientId, clientSecret, code, redirectUri, timeoutMs: 2000 }).catch((e: unknown) => e);
  expect(isAppError(down, 'DISCORD_UNREACHABLE') && down.retryable).toBe(true);
});

describeDb('workspace install upsert', (suite) => {
  it('creates one workspace per guild; a re-install keeps the claim and the plan and refreshes the name', async () => {
    const accounts = devAccounts(suite.db);
    const guildId = nextGuildId();
    const first = await accounts.install({ id: guildId, name: 'Old name' }, '10.1.1.1');
    expect(first).toMatchObject({ guild_id: guildId, name: 'Old name', created: true, claim_email: null, plan_status: 'none' });
    await withService(suite.db, (tx) =>
      tx.query(`update workspaces set claim_email = 'owner@example.com', claimed_at = now(), plan_status = 'active' where id = $1`, [first.id]),
    );
    const again = await accounts.install({ id: guildId, name: 'New name' }, '10.1.1.1');
    expect(again).toMatchObject({ id: first.id, name: 'New name', created: false, claim_email: 'owner@example.com', plan_status: 'active' });
    const count = await withService(suite.db, (tx) => tx.query<{ n: number }>('select count(*)::int as n from workspaces where guild_id = $1', [guildId]));
    expect(count[0]?.n).toBe(1);
  });

  it('refuses to overwrite claim_email, loudly, even as the service role', async () => {
    const accounts = devAccounts(suite.db);
    const ws = await accounts.install({ id: nextGuildId(), name: 'Owned' }, '10.1.1.2');
    await withService(suite.db, (tx) => tx.query(`update workspaces set claim_email = 'a@example.com', claimed_at = now() where id = $1`, [ws.id]));
    const overwrite = await withService(suite.db, (tx) =>
      tx.query(`update workspaces set claim_email = 'b@example.com' where id = $1`, [ws.id]),
    ).catch((e: unknown) => e as Error);
    expect(String((overwrite as Error).message)).toMatch(/already claimed; claim_email cannot be overwritten/);
  });
});
