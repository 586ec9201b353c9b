import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from '@brain/testkit';
import { runCli } from './run-cli.ts';

describe('brain register-commands', () => {
  let discord: FakeDiscord;
  beforeAll(async () => {
    discord = await startFakeDiscord();
  });
  afterAll(async () => {
    await discord.close();
  });
  const env = () => ({ DISCORD_APPLICATION_ID: '123456789012345678', DISCORD_BOT_TOKEN: 'bot-token-for-tests', DISCORD_API_BASE: discord.apiBase });

  it('bulk-overwrites the guild commands through discord.js REST, with the bot token', async () => {
    const result = await runCli(['register-commands', '--guild', '987654321098765432'], env());
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('Registered 12 commands in server 987654321098765432: /save, /ask, /sources, /forget, /billing, /mcp-token, /audience, /sync, /autoanswer, "Save to brain" (message menu), "Save thread to brain" (message menu), "Mark solved" (message menu).');
    const put = discord.commandPuts.at(-1);
    expect(put).toMatchObject({ applicationId: '123456789012345678', guildId: '987654321098765432', authorization: 'Bot bot-token-for-tests' });
    const body = put?.body as { name: string; type?: number; default_member_permissions?: string | null; contexts?: number[] }[];
    expect(body.map((c) => c.name)).toEqual(['save', 'ask', 'sources', 'forget', 'billing', 'mcp-token', 'audience', 'sync', 'autoanswer', 'Save to brain', 'Save thread to brain', 'Mark solved']);
    expect(body.find((c) => c.name === 'forget')?.default_member_permissions).toBe('32');
    expect(body.find((c) => c.name === 'billing')?.default_member_permissions).toBe('32');
    expect(body.find((c) => c.name === 'mcp-token')?.default_member_permissions).toBe('32');
    expect(body.find((c) => c.name === 'audience')?.default_member_permissions).toBe('32');
    expect(body.find((c) => c.name === 'sync')?.default_member_permissions).toBe('32');
    expect(body.find((c) => c.name === 'autoanswer')?.default_member_permissions).toBe('32');
    expect(body.find((c) => c.name === 'Save to brain')).toMatchObject({ type: 3, contexts: [0] });
    expect(body.find((c) => c.name === 'Save thread to brain')).toMatchObject({ type: 3, contexts: [0], integration_types: [0] });
    expect(body.find((c) => c.name === 'Mark solved')).toMatchObject({ type: 3, contexts: [0], integration_types: [0] });
  });

  it('registers globally without --guild, and explains missing credentials', async () => {
    const result = await runCli(['register-commands'], env());
    expect(result.code).toBe(0);
    expect(discord.commandPuts.at(-1)?.guildId).toBeUndefined();
    const missing = await runCli(['register-commands'], { DISCORD_API_BASE: discord.apiBase });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('error: brain register-commands needs DISCORD_APPLICATION_ID and DISCORD_BOT_TOKEN.');
  });
});
