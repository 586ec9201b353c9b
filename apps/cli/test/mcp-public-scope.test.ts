/**
 * Issue 14 rule 5 with real guild facts: a 'public' MCP token, composed as `brain start` composes
 * MCP (buildMcpDeps, the bot token reading roles and overwrites over REST from the fake guild),
 * sees workspace-wide sources and those of channels every member can read, and nothing else.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { authenticateMcpToken, createMcpToken } from '@brain/accounts';
import { loadConfig } from '@brain/config';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { call, connect, createWorkspace, saveAndIndex } from '@brain/mcp/testing';
import { createLogger } from '@brain/observability';
import { startFakeDiscordGuilds, type FakeDiscordGuilds } from '@brain/testkit';
import { buildMcpDeps } from '../src/services/mcp.ts';

const GUILD = '900000000000000001';
const MODERATOR = '900000000000000002';
const ANA = '900000000000000003';
const CH = { general: '900000000000000010', announcements: '900000000000000011', staff: '900000000000000012', vip: '900000000000000013' } as const;
const VIEW = String(PermissionFlagsBits.ViewChannel);
const READ = String(PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ReadMessageHistory | PermissionFlagsBits.SendMessages);

describeDb('a public MCP token with real guild facts', (suite) => {
  let guilds: FakeDiscordGuilds;
  let ws = '';
  const ids: Record<string, string> = {};
  const clients: Client[] = [];

  beforeAll(async () => {
    guilds = await startFakeDiscordGuilds({
      guilds: [
        {
          id: GUILD,
          owner_id: '900000000000000099',
          name: 'Scoped',
          roles: [
            { id: GUILD, name: '@everyone', permissions: READ },
            { id: MODERATOR, name: 'Moderator', permissions: READ },
          ],
          channels: [
            { id: CH.general, type: 0, name: 'general' },
            // Readable by everyone, only posting is denied.
            { id: CH.announcements, type: 5, name: 'announcements', permission_overwrites: [{ id: GUILD, type: 0, allow: '0', deny: String(PermissionFlagsBits.SendMessages) }] },
            { id: CH.staff, type: 0, name: 'staff', permission_overwrites: [{ id: GUILD, type: 0, allow: '0', deny: VIEW }, { id: MODERATOR, type: 0, allow: VIEW, deny: '0' }] },
            { id: CH.vip, type: 0, name: 'vip', permission_overwrites: [{ id: GUILD, type: 0, allow: '0', deny: VIEW }, { id: ANA, type: 1, allow: VIEW, deny: '0' }] },
          ],
        },
      ],
    });
    ws = await createWorkspace(suite.db, 'mcp-public');
    await withService(suite.db, (tx) => tx.query('update workspaces set guild_id = $2 where id = $1', [ws, GUILD]));
    ids.workspace = await saveAndIndex(suite.db, ws, 'Holiday policy', 'Holiday week: the office closes on the Friday before.');
    for (const [name, channel] of Object.entries(CH)) {
      ids[name] = await saveAndIndex(suite.db, ws, `Holiday notes from #${name}`, `Holiday week notes from the ${name} channel.`);
      await withService(suite.db, (tx) => tx.query('update artifacts set audience = $2 where id = $1', [ids[name], `channel:${channel}`]));
    }
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await guilds?.close();
  });

  async function publicClient(env: Record<string, string>): Promise<Client> {
    const config = loadConfig({ BRAIN_DATA_DIR: '/nonexistent', ...env }, { cwd: process.cwd() });
    const deps = buildMcpDeps(config, suite.db, createLogger({ level: 'silent' }), async () => ({ allowed: true }));
    const { token } = await createMcpToken(suite.db, ws, `agent ${clients.length}`, 'test');
    const principal = await authenticateMcpToken(suite.db, token);
    expect(principal.audienceScope).toBe('public');
    const audience = await (deps.tokenAudience as NonNullable<typeof deps.tokenAudience>)(principal);
    const client = await connect(deps, { workspaceId: ws, name: principal.name, audience });
    clients.push(client);
    return client;
  }

  const listed = async (client: Client) =>
    (await call<{ sources: { id: string }[] }>(client, 'list_sources', {})).structuredContent.sources.map((s) => s.id).sort();
  const expected = (...names: string[]) => names.map((n) => ids[n] as string).sort();

  it('lists, finds and opens the workspace-wide sources and those of channels every member can read, nothing else', async () => {
    const client = await publicClient({ DISCORD_BOT_TOKEN: guilds.botToken, DISCORD_API_BASE: guilds.apiBase });
    expect(await listed(client)).toEqual(expected('workspace', 'general', 'announcements'));
    const found = (await call<{ passages: { source_id: string }[] }>(client, 'search_brain', { query: 'holiday week notes' })).structuredContent.passages.map((p) => p.source_id);
    expect(found).toEqual(expect.arrayContaining([ids.general, ids.announcements]));
    expect(found).not.toContain(ids.staff);
    expect(found).not.toContain(ids.vip);
    expect((await call(client, 'get_source', { id: ids.staff })).isError).toBe(true);
    expect((await call(client, 'get_source', { id: ids.general })).isError).toBeFalsy();
    expect(guilds.reads()).toBeGreaterThan(0);
  });

  it('without the bot token nothing can be judged: the workspace-wide sources only', async () => {
    const client = await publicClient({});
    expect(await listed(client)).toEqual(expected('workspace'));
  });
});
