// The reference: a bare node:http server that only verifies the Ed25519 signature over
// timestamp + raw body and answers, with nothing else in the process. Started by run.ts.
import { createPublicKey, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const publicKeyHex = process.argv[2] ?? '';
const key = createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(publicKeyHex, 'hex')]), format: 'der', type: 'spki' });

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const signature = String(req.headers['x-signature-ed25519'] ?? '');
    const timestamp = String(req.headers['x-signature-timestamp'] ?? '');
    const ok = /^[0-9a-f]{128}$/i.test(signature) && verify(null, Buffer.concat([Buffer.from(timestamp), body]), key, Buffer.from(signature, 'hex'));
    if (!ok) {
      res.writeHead(401).end('invalid request signature');
      return;
    }
    const type = (JSON.parse(body.toString('utf8')) as { type: number }).type;
    res.writeHead(200, { 'content-type': 'application/json' }).end(type === 1 ? '{"type":1}' : '{"type":5}');
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
