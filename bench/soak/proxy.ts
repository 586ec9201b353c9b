// A small round-robin load balancer on loopback, in front of the soak's web instances, as a
// platform's router would be. Like one, it health-checks each instance (GET /readyz, every
// 250 ms) and routes only to those that say ready: a restarted instance gets traffic once it has
// warmed up, and a draining one stops getting it. A request whose upstream refused or dropped the connection before
// any response goes to the next instance: interactions are deduplicated by id in the database,
// so a second delivery is safe (Discord itself redelivers nothing). Started by main.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const upstreams = (process.argv[2] ?? '').split(',').map(Number).filter(Boolean);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
let turn = 0;
const stats = { forwarded: 0, retried: 0, failed: 0, readyChecks: 0, notReady: 0 };
const ready = new Set<number>();

const checkAgent = new http.Agent({ keepAlive: true, maxSockets: 2 });
function check(port: number): void {
  stats.readyChecks += 1;
  let timedOut = false;
  const done = (ok: boolean) => {
    if (ok) return void ready.add(port);
    stats.notReady += 1;
    ready.delete(port);
  };
  const req = http.get({ host: '127.0.0.1', port, path: '/readyz', agent: checkAgent, timeout: 2_000 }, (res) => {
    res.resume();
    done(res.statusCode === 200);
  });
  // A slow answer on a busy machine changes nothing: only a refusal or a 503 takes an instance out.
  req.on('timeout', () => {
    timedOut = true;
    req.destroy();
  });
  req.on('error', () => {
    if (!timedOut) done(false);
  });
}
setInterval(() => upstreams.forEach(check), 250).unref();
upstreams.forEach(check);

/** The next instance in turn among the ready ones; all of them when none says ready (a probe can lag). */
function pick(): number {
  const pool = upstreams.filter((p) => ready.has(p));
  const from = pool.length > 0 ? pool : upstreams;
  return from[turn++ % from.length] as number;
}

function forward(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse, tries: number): void {
  const port = pick();
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
