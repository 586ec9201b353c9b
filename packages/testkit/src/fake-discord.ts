import { startFakeHttpServer, type FakeHttpServer, type FakeResponse, type RecordedRequest } from './fake-http-server.ts';

/** One edit or follow-up the fake received, decoded. */
export interface DiscordWebhookCall {
  kind: 'edit-original' | 'follow-up' | 'edit-follow-up';
  applicationId: string;
  token: string;
  body: Record<string, unknown>;
  headers: RecordedRequest['headers'];
  at: number;
}

export interface FakeDiscord {
  /** Pass as DISCORD_API_BASE / createDiscordApi({ apiBase }): http://127.0.0.1:PORT/api */
  apiBase: string;
  url: string;
  /** Every webhook edit and follow-up, in arrival order. */
  calls: DiscordWebhookCall[];
  /** Bulk command overwrites: global (guildId undefined) or per guild. */
  commandPuts: { applicationId: string; guildId: string | undefined; body: unknown; authorization: string | undefined }[];
  /** The calls for one interaction token. */
  callsFor(token: string): DiscordWebhookCall[];
  /** Resolves when `count` calls for `token` have arrived (or rejects after `timeoutMs`). */
  waitForCalls(token: string, count: number, timeoutMs?: number): Promise<DiscordWebhookCall[]>;
  /** The next webhook requests get these responses instead, in order (429s, 5xx, 401s…). */
  failNext(...responses: FakeResponse[]): void;
  /** Delays every webhook response (slow Discord). */
  setDelay(ms: number): void;
  close(): Promise<void>;
}

/**
 * A Discord REST API on loopback for the interaction webhooks (edit @original, follow-ups) and
 * command registration. It answers like Discord: a message object back, `mentions: []` because
 * allowed_mentions decides who is pinged, and 404 Unknown Webhook for a route it does not know.
 */
export async function startFakeDiscord(options: { server?: FakeHttpServer } = {}): Promise<FakeDiscord> {
  // One API base serves OAuth and webhooks on discord.com: a test can mount both on one fake.
  const server = options.server ?? (await startFakeHttpServer('Discord'));
  const calls: DiscordWebhookCall[] = [];
  const commandPuts: FakeDiscord['commandPuts'] = [];
  const queued: FakeResponse[] = [];
  const waiters: { token: string; count: number; resolve: (c: DiscordWebhookCall[]) => void }[] = [];
  let delayMs = 0;
  let nextMessageId = 1_000_000_000_000_000_000n;

  const callsFor = (token: string) => calls.filter((c) => c.token === token);

  const webhook = (kind: DiscordWebhookCall['kind']) => (req: RecordedRequest): FakeResponse => {
    const failure = queued.shift();
    if (failure) return failure;
    const [, , , , applicationId = '', token = ''] = req.path.split('/');
    const body = (req.json ?? {}) as Record<string, unknown>;
    calls.push({ kind, applicationId, token, body, headers: req.headers, at: Date.now() });
    for (const w of [...waiters]) {
      if (callsFor(w.token).length >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(callsFor(w.token));
      }
    }
    nextMessageId += 1n;
    return {
      delayMs,
      body: { id: String(nextMessageId), type: 20, channel_id: '1', content: body.content ?? '', embeds: body.embeds ?? [], components: body.components ?? [], flags: body.flags ?? 0, mentions: [], mention_roles: [], mention_everyone: false },
    };
  };

  // @discordjs/rest encodes "@original" as %40original.
  server.on('PATCH', '/api/v10/webhooks/:app/:token/messages/%40original', webhook('edit-original'));
  server.on('PATCH', '/api/v10/webhooks/:app/:token/messages/@original', webhook('edit-original'));
  server.on('PATCH', '/api/v10/webhooks/:app/:token/messages/:id', webhook('edit-follow-up'));
  server.on('POST', '/api/v10/webhooks/:app/:token', webhook('follow-up'));
  const putCommands = (req: RecordedRequest): FakeResponse => {
    const parts = req.path.split('/');
    commandPuts.push({ applicationId: parts[4] ?? '', guildId: parts[6], body: req.json, authorization: req.headers.authorization });
    return { body: Array.isArray(req.json) ? req.json.map((c: Record<string, unknown>, i: number) => ({ id: String(2000 + i), version: '1', ...c })) : [] };
  };
  server.on('PUT', '/api/v10/applications/:app/commands', putCommands);
  server.on('PUT', '/api/v10/applications/:app/guilds/:guild/commands', putCommands);

  return {
    apiBase: `${server.url}/api`,
    url: server.url,
    calls,
    commandPuts,
    callsFor,
    waitForCalls(token, count, timeoutMs = 10_000) {
      if (callsFor(token).length >= count) return Promise.resolve(callsFor(token));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`fake Discord: ${callsFor(token).length} of ${count} calls for token ${token} after ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ token, count, resolve: (c) => (clearTimeout(timer), resolve(c)) });
      });
    },
    failNext: (...responses) => void queued.push(...responses),
    setDelay: (ms) => void (delayMs = ms),
    close: () => (options.server ? Promise.resolve() : server.close()),
  };
}
