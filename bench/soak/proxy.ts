// A small round-robin load balancer on loopback, in front of the soak's web instances, as a
// platform's router would be. A request whose upstream refused or dropped the connection before
// any response goes to the next instance: interactions are deduplicated by id in the database,
// so a second delivery is safe (Discord itself redelivers nothing). Started by main.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const upstreams = (process.argv[2] ?? '').split(',').map(Number).filter(Boolean);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
let turn = 0;
const stats = { forwarded: 0, retried: 0, failed: 0 };

function forward(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse, tries: number): void {
  const port = upstreams[turn++ % upstreams.length] as number;
  const upstream = http.request(
    { host: '127.0.0.1', port, path: req.url, method: req.method, headers: { ...req.headers, host: `127.0.0.1:${port}`, 'content-length': body.byteLength }, agent },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
      stats.forwarded += 1;
    },
  );
  upstream.on('error', () => {
    if (res.headersSent) return res.destroy();
    if (tries + 1 < upstreams.length * 2) {
      stats.retried += 1;
      return forward(req, body, res, tries + 1);
    }
    stats.failed += 1;
    res.writeHead(502, { 'content-type': 'text/plain' }).end('no upstream answered');
  });
  upstream.end(body);
}

const server = http.createServer((req, res) => {
  if (req.url === '/__proxy/stats') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stats));
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => forward(req, Buffer.concat(chunks), res, 0));
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
process.on('SIGTERM', () => process.exit(0));
