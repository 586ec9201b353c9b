import { afterAll, beforeAll, expect, it } from 'vitest';
import { authenticateMcpToken, listMcpTokens } from '@brain/accounts';
import { describeDb } from '@brain/db/testing';
import { startFakeDiscord, type FakeDiscord } from '@brain/testkit';
import { createGuildWorkspace, MEMBER, slash, startHarness, type Harness } from './helpers/discord-harness.ts';

describeDb('/mcp-token: an admin creates an MCP token, shown once, ephemerally', (suite) => {
  let discord: FakeDiscord;
  let h: Harness;
  let guild: { guildId: string; workspaceId: string };

  beforeAll(async () => {
    discord = await startFakeDiscord();
    h = await startHarness({ db: suite.db, discord });
    guild = await createGuildWorkspace(suite.db);
  });
  afterAll(async () => {
    await h.close();
    await discord.close();
  });

  it('defers ephemerally, then edits in the token once; the token acts for this server’s workspace', async () => {
    const body = slash(guild.guildId, 'mcp-token', [{ name: 'name', value: 'Claude Desktop (Ada)' }]);
    expect((await h.send(body)).json).toEqual({ type: 5, data: { flags: 64 } });
    const [edit] = await discord.waitForCalls(body.token, 1);
    const content = String(edit?.body.content);
    expect(content).toMatch(/^🔑 MCP token \*Claude Desktop \(Ada\)\* created\. Copy it now: it is shown only this once/);
    expect(edit?.body.allowed_mentions).toEqual({ parse: [] });
    const token = /```\n(brain_mcp_[A-Za-z0-9_-]{43})\n```/.exec(content)?.[1];
    expect(token).toBeDefined();
    const principal = await authenticateMcpToken(suite.db, token);
    expect(principal).toMatchObject({ workspaceId: guild.workspaceId, name: 'Claude Desktop (Ada)' });
    const [summary] = await listMcpTokens(suite.db, guild.workspaceId);
    expect(summary).toMatchObject({ name: 'Claude Desktop (Ada)', createdBy: 'discord:300000000000000001' });
    expect(content).toContain(`brain token revoke ${summary?.id}`);
  });

  it('a second token with the same live name is refused with the reason and what to do', async () => {
    const body = slash(guild.guildId, 'mcp-token', [{ name: 'name', value: 'claude desktop (ada)' }]);
    await h.send(body);
    const [edit] = await discord.waitForCalls(body.token, 1);
    expect(edit?.body.content).toContain('MCP_TOKEN_NAME_TAKEN');
    expect(edit?.body.content).not.toMatch(/brain_mcp_/);
  });

  it('re-checks admin permissions on the server, whatever Discord showed, and creates nothing', async () => {
    const before = (await listMcpTokens(suite.db, guild.workspaceId)).length;
    const res = await h.send(slash(guild.guildId, 'mcp-token', [{ name: 'name', value: 'Sneaky' }], { permissions: MEMBER }));
    expect(res.json.data.content).toBe('Only server admins (Manage Server) can do that.');
    expect(res.json.data.flags & 64).toBe(64);
    expect(await listMcpTokens(suite.db, guild.workspaceId)).toHaveLength(before);
  });
});
