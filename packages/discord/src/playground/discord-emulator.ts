import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@brain/observability';
import { limitViolations } from '../render/limits.ts';
import type { OutgoingMessage } from '../rest/outgoing-message.ts';
import type { PlaygroundChannel, PlaygroundMessage } from './playground-channel.ts';

export interface DiscordEmulator {
  /** Give this to createDiscordApi({ apiBase }): http://127.0.0.1:PORT/api */
  apiBase: string;
  close(): Promise<void>;
}

const WEBHOOK = /^\/api\/v10\/webhooks\/(\d+)\/([\w.-]+)(?:\/messages\/(@original|%40original))?$/;
const MAX_BODY = 1024 * 1024;

/**
 * The part of Discord's REST API that interaction follow-ups use, in this process, on loopback:
 * PATCH @original and POST follow-ups land in the playground's channel. It checks bodies the
 * way Discord does (limits → 400 with code 50035; an unknown token → 404 with code 10015), so
 * the playground shows exactly what Discord would accept.
 */
export async function startDiscordEmulator(channel: PlaygroundChannel, logger: Logger): Promise<DiscordEmulator> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const match = WEBHOOK.exec(new URL(req.url ?? '/', 'http://emulator').pathname);
      if (!match || size > MAX_BODY) return send(404, { message: '404: Not Found', code: 0 });
      const [, , token = '', target] = match;
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      } catch {
        return send(400, { message: 'The request body contains invalid JSON.', code: 50109 });
      }
      const problems = limitViolations({
        content: typeof body.content === 'string' ? body.content : '',
        embeds: Array.isArray(body.embeds) ? (body.embeds as OutgoingMessage['embeds']) : [],
        components: Array.isArray(body.components) ? (body.components as OutgoingMessage['components']) : [],
      });
      if (problems.length > 0) {
        logger.error({ problems }, 'playground emulator: Discord would refuse this message');
        return send(400, { message: 'Invalid Form Body', code: 50035, errors: problems });
      }
      let message: PlaygroundMessage | undefined;
      if (req.method === 'PATCH' && (target === '@original' || target === '%40original')) message = channel.editOriginal(token, body);
      else if (req.method === 'POST' && target === undefined) message = channel.followUp(token, body);
      if (!message) return send(404, { message: 'Unknown Webhook', code: 10015 });
      send(200, { id: message.id, type: 20, channel_id: '0', content: message.content, embeds: message.embeds, components: message.components, flags: message.flags, mentions: [], mention_roles: [], mention_everyone: false });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiBase: `http://127.0.0.1:${port}/api`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
