import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { commandDefinitions, PLAYGROUND, PLAYGROUND_PERSONAS, playgroundChannelsFor, type PlaygroundChannel, type PlaygroundGateway } from '@brain/discord';
import { AppError } from '@brain/errors';
import { allowedOrigin } from '../../security/allowed-origin.ts';
import { useHostGuard } from '../../security/host-guard.ts';
import { ensureViewer, requireViewer, viewerOf } from './playground-viewer.ts';

export interface PlaygroundDeps {
  channel: PlaygroundChannel;
  gateway: PlaygroundGateway;
}

const asset = (name: string) => fs.readFileSync(fileURLToPath(new URL(`./assets/${name}`, import.meta.url)), 'utf8');
const ASSETS: Record<string, { body: string; type: string }> = {
  'app.js': { body: asset('app.js'), type: 'text/javascript; charset=utf-8' },
  'style.css': { body: asset('style.css'), type: 'text/css; charset=utf-8' },
};
const PAGE = asset('index.html');

/** This server's own /interactions, on the address the request came in on: a real HTTP round trip. */
function interactionsUrl(request: FastifyRequest): string {
  const address = request.socket.localAddress ?? '127.0.0.1';
  const host = address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${request.socket.localPort}/interactions`;
}

function requireString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 8000) {
    throw new AppError({ code: 'PLAYGROUND_REQUEST_INVALID', message: `${name} must be a non-empty string`, httpStatus: 400 });
  }
  return value;
}

/**
 * /playground: a page that looks like a Discord channel. What you type becomes a signed
 * interaction sent to /interactions; the bot's edits and follow-ups reach the in-process Discord
 * API emulator, and the page renders them as they happen (server-sent events).
 *
 * It acts as the server's administrator with no login, so only this machine or PUBLIC_URL may
 * drive it: a foreign Host is refused (DNS rebinding), and a POST needs this server's Origin.
 */
export const playgroundRoute: FastifyPluginAsync<{ playground: PlaygroundDeps; publicUrl: string }> = async (app, { playground, publicUrl }) => {
  const { channel, gateway } = playground;
  useHostGuard(app, publicUrl, { requireOrigin: true });
  const streams = new Set<() => void>();
  // preClose, not onClose: close() waits for open responses, and an event stream never ends by itself.
  app.addHook('preClose', async () => {
    for (const end of streams) end();
  });

  app.get('/playground', async (request, reply) => {
    ensureViewer(request, reply, allowedOrigin(request, publicUrl)?.startsWith('https:') ?? false);
    return reply
      .type('text/html; charset=utf-8').header('cache-control', 'no-store').header('content-security-policy', "default-src 'self'; img-src 'self' data:; style-src 'self'").send(PAGE);
  });
  app.get<{ Params: { name: string } }>('/playground/assets/:name', async (request, reply) => {
    const found = ASSETS[request.params.name];
    if (!found) return reply.status(404).send({ error: 'NOT_FOUND', message: 'No such asset.' });
    return reply.type(found.type).header('cache-control', 'no-cache').send(found.body);
  });

  app.get('/playground/state', async (request) => {
    const viewer = viewerOf(request);
    const view = gateway.view(viewer ?? '');
    return {
    // Only the channels this persona can view: the member's page never holds #staff's messages.
    messages: gateway.messagesFor(viewer),
    server: { id: PLAYGROUND.guildId, name: PLAYGROUND.guildName, channel: PLAYGROUND.channelName },
    // The sidebar lists what this persona can view: the member has no #staff.
    channels: playgroundChannelsFor(view.persona, channel.channels()),
    personas: Object.entries(PLAYGROUND_PERSONAS).map(([id, p]) => ({ id, label: p.label })),
    view,
    commands: commandDefinitions().map((c) => ({
      name: c.name,
      type: c.type ?? 1,
      description: 'description' in c ? c.description : '',
      options: ('options' in c ? (c.options ?? []) : []).map((o) => ({ name: o.name, description: o.description, required: 'required' in o ? Boolean(o.required) : false })),
    })),
    };
  });

  app.get('/playground/events', { logLevel: 'warn' }, async (request, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.write('retry: 1000\n\n');
    const viewer = viewerOf(request);
    // Judged at each event: the persona may have changed since the stream opened.
    const unsubscribe = channel.subscribe((event) => {
      if (gateway.mayRead(viewer ?? '', event.message)) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event.message)}\n\n`);
    }, viewer);
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
    const end = () => {
      clearInterval(ping);
      unsubscribe();
      streams.delete(end);
      res.end();
    };
    streams.add(end);
    request.raw.on('close', end);
  });

  // Switch channel (#general, #staff) or who you are (member, moderator): what this viewer's next command is sent as.
  // The new view comes back with the channels its persona can view, for the sidebar.
  app.post<{ Body: { channelId?: unknown; persona?: unknown } }>('/playground/view', async (request) => {
    const view = gateway.setView(requireViewer(request), request.body ?? {});
    return { ...view, channels: playgroundChannelsFor(view.persona, channel.channels()) };
  });
  app.post<{ Body: { text?: unknown } }>('/playground/send', async (request) => gateway.send(requireString(request.body?.text, 'text'), requireViewer(request), interactionsUrl(request)));
  app.post<{ Body: { text?: unknown } }>('/playground/autocomplete', async (request) => gateway.autocomplete(requireString(request.body?.text, 'text'), requireViewer(request), interactionsUrl(request)));
  app.post<{ Body: { messageId?: unknown; customId?: unknown } }>('/playground/press', async (request) =>
    gateway.press(requireString(request.body?.messageId, 'messageId'), requireString(request.body?.customId, 'customId'), requireViewer(request), interactionsUrl(request)),
  );
  app.post<{ Body: { messageId?: unknown } }>('/playground/save-message', async (request) =>
    gateway.saveMessage(requireString(request.body?.messageId, 'messageId'), requireViewer(request), interactionsUrl(request)),
  );
  app.post<{ Body: { messageId?: unknown } }>('/playground/save-thread', async (request) =>
    gateway.saveThread(requireString(request.body?.messageId, 'messageId'), requireViewer(request), interactionsUrl(request)),
  );
  app.post<{ Body: { messageId?: unknown } }>('/playground/mark-solved', async (request) =>
    gateway.markSolved(requireString(request.body?.messageId, 'messageId'), requireViewer(request), interactionsUrl(request)),
  );
};
