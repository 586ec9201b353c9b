// A local documentation site for `bench:ack --with-ingest`: the Markdown docs and READMEs that ship
// in node_modules (fastify, undici, pino …), each served as an HTML page, in its own process so its
// work does not land on the app. GET /index.json lists the page URLs. Started by run.ts.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../node_modules', import.meta.url));
const wanted = Number(process.argv[2] ?? '140');

function markdownFiles(): string[] {
  const docs = ['fastify', 'undici', 'pino'].flatMap((pkg) => walk(path.join(root, pkg, 'docs')));
  const readmes = fs
    .readdirSync(root)
    .flatMap((name) => (name.startsWith('@') ? fs.readdirSync(path.join(root, name)).map((n) => `${name}/${n}`) : [name]))
    .map((name) => path.join(root, name, 'README.md'))
    .filter((file) => fs.existsSync(file));
  // Pages worth indexing, in a fixed order so every run saves the same corpus.
  return [...docs, ...readmes].filter((file) => fs.statSync(file).size >= 2_000).sort().slice(0, wanted);
}

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.md') ? [path.join(dir, e.name)] : []));
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Headings become headings and everything else paragraphs: enough structure for readability and the chunker. */
function page(markdown: string, title: string): string {
  const blocks = markdown.split(/\n{2,}/).map((block) => {
    const heading = /^(#{1,6})\s+(.*)$/.exec(block.trim());
    return heading ? `<h${heading[1]?.length}>${escape(heading[2] ?? '')}</h${heading[1]?.length}>` : `<p>${escape(block)}</p>`;
  });
  return `<!doctype html><html><head><title>${escape(title)}</title></head><body><nav><a href="/">Docs</a></nav><main><article>${blocks.join('\n')}</article></main></body></html>`;
}

const files = markdownFiles();
const pages = new Map(files.map((file, i) => [`/p/${i}`, file]));
const server = http.createServer((req, res) => {
  if (req.url === '/index.json') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([...pages.keys()]));
    return;
  }
  const file = pages.get(req.url ?? '');
  if (!file) {
    res.writeHead(404).end();
    return;
  }
  const title = path.relative(root, file).replace(/\.md$/, '');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(fs.readFileSync(file, 'utf8'), title));
});
server.listen(0, '127.0.0.1', () => {
  const bytes = files.reduce((sum, file) => sum + fs.statSync(file).size, 0);
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port, pages: files.length, markdownBytes: bytes })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
