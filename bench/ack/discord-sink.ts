// Discord's side of the follow-ups during the benchmark: answers every edit 200 and counts what
// arrived (answers vs error notices), in its own process so its work does not land on the load
// generator or the app. GET /stats returns the counts. Started by run.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const stats = { edits: 0, answers: 0, errors: 0, other: 0, lastErrors: [] as string[], saves: { edits: 0, saved: 0, failed: 0, stillIndexing: 0, other: 0, examples: [] as string[], lastFinalAt: 0 } };
// /save follow-ups (bench:ack --with-ingest) carry tokens that start with "save": counted apart
// from the /ask ones, by their final line (✅ saved, ❌ failed, ⏳ still indexing past the wait).
const SAVE_TOKEN = /\/webhooks\/[^/]+\/save[^/]*\//;
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.method === 'GET' && req.url === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stats));
      return;
    }
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { content?: string; embeds?: unknown[] };
      if (SAVE_TOKEN.test(req.url ?? '')) {
        countSave(body.content ?? '');
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 's', content: '', embeds: [], mentions: [] }));
        return;
      }
      stats.edits += 1;
      if ((body.embeds ?? []).length > 0) stats.answers += 1;
      else if ((body.content ?? '').startsWith('⚠️')) {
        stats.errors += 1;
        if (stats.lastErrors.length < 3 && !stats.lastErrors.includes(body.content ?? '')) stats.lastErrors.push(body.content ?? '');
      } else stats.other += 1;
    } catch {
      stats.other += 1;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: String(stats.edits), content: '', embeds: [], mentions: [] }));
  });
});
function countSave(content: string): void {
  stats.saves.edits += 1;
  if (content.startsWith('⏳ Saving')) return;
  if (content.startsWith('✅')) stats.saves.saved += 1;
  else if (content.startsWith('❌')) stats.saves.failed += 1;
  else if (content.startsWith('⏳')) stats.saves.stillIndexing += 1;
  else {
    // Neither saved, failed nor still indexing (a refusal, a restart notice): kept apart, with an example.
    stats.saves.other += 1;
    if (stats.saves.examples.length < 3) stats.saves.examples.push(content.slice(0, 160));
  }
  stats.saves.lastFinalAt = Date.now();
}

server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
