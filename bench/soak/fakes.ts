// The soak's network edges, in one process of their own: Discord's REST side of the follow-ups
// (records every edit per interaction token) and the web the saves point at (fast pages, slow
// pages, failing pages, PDFs). GET /edits returns what Discord received. Started by main.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { textPdf } from '@brain/testkit';

export interface TokenEdits {
  edits: number;
  /** The last content the deferred reply was edited to. */
  last: string;
  lastAt: number;
}

const edits = new Map<string, TokenEdits>();
// discord.js escapes the route's arguments: @original arrives as %40original.
const WEBHOOK = /^\/api\/v10\/webhooks\/[^/]+\/([^/?]+)\/messages\/(?:@|%40)original/;

// Facts a page carries, so an /ask in its workspace can find it.
const TOPICS = ['deploys', 'key rotation', 'code review', 'on-call', 'refunds', 'backups', 'incident reviews', 'release trains'];
function pageText(path: string): { title: string; paragraphs: string[] } {
  const n = [...path].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
  const topic = TOPICS[n % TOPICS.length] as string;
  const paragraphs = Array.from({ length: 6 + (n % 6) }, (_, i) => `Section ${i + 1} on ${topic} for ${path}: the team handles ${topic} every ${2 + ((n + i) % 12)} days, owner group ${(n + i) % 17}, checklist item ${i} of the ${topic} runbook.`);
  return { title: `${topic} notes ${path}`, paragraphs };
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function serveSite(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = req.url ?? '/';
  const [, kind] = /^\/site\/([a-z0-9]+)\//.exec(url) ?? [];
  const html = () => {
    const { title, paragraphs } = pageText(url);
    return `<!doctype html><html><head><title>${escape(title)}</title></head><body><main><article><h1>${escape(title)}</h1>${paragraphs.map((p) => `<p>${escape(p)}</p>`).join('')}</article></main></body></html>`;
  };
  switch (kind) {
    case 'fast':
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html());
      return;
    case 'slow':
      // Slower than a typical page, well inside the fetch timeout.
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html()), 4_000);
      return;
    case 'pdf': {
      const { title, paragraphs } = pageText(url);
      res.writeHead(200, { 'content-type': 'application/pdf' }).end(textPdf({ title, pages: [paragraphs.slice(0, 3), paragraphs.slice(3)] }));
      return;
    }
    case 'gone':
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    case 'down':
      res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' }).end('unavailable');
      return;
    default:
      res.writeHead(404).end();
  }
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const url = req.url ?? '/';
    if (url.startsWith('/site/')) return serveSite(req, res);
    if (req.method === 'GET' && url === '/edits') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Object.fromEntries(edits)));
      return;
    }
    const webhook = WEBHOOK.exec(url);
    if (webhook && req.method === 'PATCH') {
      const token = webhook[1] as string;
      let content = '';
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { content?: string; embeds?: { description?: string }[] };
        content = body.content || (body.embeds?.[0]?.description ?? '') || ((body.embeds ?? []).length > 0 ? '(embed)' : '');
      } catch {
        content = '(unparseable body)';
      }
      const seen = edits.get(token) ?? { edits: 0, last: '', lastAt: 0 };
      edits.set(token, { edits: seen.edits + 1, last: content.slice(0, 200), lastAt: Date.now() });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: '1', content, embeds: [], mentions: [] }));
      return;
    }
    // Follow-up messages (long answers) and anything else: accepted, not an edit of the deferral.
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: '2', content: '', embeds: [], mentions: [] }));
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
process.on('SIGTERM', () => process.exit(0));
