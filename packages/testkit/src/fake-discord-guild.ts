import { startFakeHttpServer, type FakeHttpServer, type FakeResponse, type RecordedRequest } from './fake-http-server.ts';

export interface FakeGuildRole {
  id: string;
  name: string;
  /** A bit set as Discord sends it: a decimal string. */
  permissions: string;
  position?: number;
}

export interface FakeGuildChannel {
  id: string;
  type: number;
  name: string;
  parent_id?: string | null;
  permission_overwrites?: { id: string; type: 0 | 1; allow: string; deny: string }[];
  /** The bot lacks VIEW_CHANNEL: left out of the channel list and 403 on GET /channels/{id}, as Discord does. */
  hiddenFromBot?: boolean;
}

export interface FakeGuildState {
  id: string;
  owner_id: string;
  name: string;
  roles: FakeGuildRole[];
  /** Channels and threads; threads (types 10, 11, 12) are only served by GET /channels/{id}. */
  channels: FakeGuildChannel[];
}

export interface FakeDiscordGuilds {
  apiBase: string;
  /** Mutable: change roles or overwrites between requests, as a server admin would. */
  guilds: Map<string, FakeGuildState>;
  /** The bot token requests must carry ("Authorization: Bot <token>"). */
  botToken: string;
  /** How many guild-fact reads arrived (any of the four routes). */
  reads(): number;
  close(): Promise<void>;
}

const THREAD_TYPES = new Set([10, 11, 12]);

/**
 * The guild reads behind audiences, as Discord's REST API answers them: GET /guilds/{id},
 * /guilds/{id}/roles, /guilds/{id}/channels (no threads, and since channel obfuscation no
 * channel the bot cannot view) and /channels/{id} (threads too). A missing or wrong bot token is
 * a 401, an unknown guild or channel a 404 with Discord's error codes, a hidden channel a 403.
 */
export async function startFakeDiscordGuilds(options: { server?: FakeHttpServer; botToken?: string; guilds?: FakeGuildState[] } = {}): Promise<FakeDiscordGuilds> {
  const server = options.server ?? (await startFakeHttpServer('Discord guilds'));
  const botToken = options.botToken ?? 'fake-bot-token';
  const guilds = new Map((options.guilds ?? []).map((g) => [g.id, g]));
  let reads = 0;

  const authed = (handler: (req: RecordedRequest, id: string) => FakeResponse) => (req: RecordedRequest): FakeResponse => {
    reads++;
    if (req.headers.authorization !== `Bot ${botToken}`) return { status: 401, body: { message: '401: Unauthorized', code: 0 } };
    const id = req.path.split('/')[4] ?? '';
    return handler(req, id);
  };
  const unknownGuild: FakeResponse = { status: 404, body: { message: 'Unknown Guild', code: 10004 } };
  const strip = ({ hiddenFromBot: _hidden, ...channel }: FakeGuildChannel, guildId: string) => ({ ...channel, guild_id: guildId, permission_overwrites: channel.permission_overwrites ?? [] });

  server.on('GET', '/api/v10/guilds/:guild', authed((_req, id) => {
    const g = guilds.get(id);
    return g ? { body: { id: g.id, name: g.name, owner_id: g.owner_id, roles: g.roles } } : unknownGuild;
  }));
  server.on('GET', '/api/v10/guilds/:guild/roles', authed((_req, id) => {
    const g = guilds.get(id);
    return g ? { body: g.roles.map((r, i) => ({ position: i, managed: false, ...r })) } : unknownGuild;
  }));
  server.on('GET', '/api/v10/guilds/:guild/channels', authed((_req, id) => {
    const g = guilds.get(id);
    return g ? { body: g.channels.filter((c) => !THREAD_TYPES.has(c.type) && !c.hiddenFromBot).map((c) => strip(c, g.id)) } : unknownGuild;
  }));
  server.on('GET', '/api/v10/channels/:channel', authed((_req, id) => {
    for (const g of guilds.values()) {
      const c = g.channels.find((x) => x.id === id);
      if (!c) continue;
      if (c.hiddenFromBot) return { status: 403, body: { message: 'Missing Access', code: 50001 } };
      return { body: strip(c, g.id) };
    }
    return { status: 404, body: { message: 'Unknown Channel', code: 10003 } };
  }));

  return {
    apiBase: `${server.url}/api`,
    guilds,
    botToken,
    reads: () => reads,
    close: () => (options.server ? Promise.resolve() : server.close()),
  };
}
