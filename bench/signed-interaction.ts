// The one signed interaction POST that bench:ack's load generator, its --with-ingest saves and the
// soak's driver send, as Discord sends it: Ed25519 over timestamp + body, in Discord's headers.
import http from 'node:http';
import type { DevKeyPair } from '@brain/discord';

export interface SignedInteraction {
  body: string;
  timestamp: string;
  signature: string;
}

/** Signs a body; the load generator does it before a step starts, so signing is not timed. */
export function signInteraction(keys: DevKeyPair, body: string, timestamp = String(Math.floor(Date.now() / 1000))): SignedInteraction {
  return { body, timestamp, signature: keys.sign(timestamp, body) };
}

export interface InteractionAnswer {
  status: number;
  /** The interaction response's `type` (4 replied, 5 deferred), with `readType`, when the body is JSON with one. */
  type?: number | undefined;
}

export interface PostOptions {
  agent: http.Agent;
  /** Read and parse the answer's body for its `type`; otherwise the body is drained unread. */
  readType?: boolean;
  /** Destroys a request with no answer by then (the error rejects). */
  timeoutMs?: number;
}

/** POSTs one signed interaction; resolves with the answer's status (and type), rejects on a network error. */
export function postSignedInteraction(target: URL, signed: SignedInteraction, options: PostOptions): Promise<InteractionAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent: options.agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(signed.body),
          'x-signature-ed25519': signed.signature,
          'x-signature-timestamp': signed.timestamp,
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (!options.readType) {
          res.resume();
          res.on('end', () => resolve({ status }));
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status, type: typeOf(Buffer.concat(chunks)) }));
      },
    );
    if (options.timeoutMs !== undefined) {
      const ms = options.timeoutMs;
      req.setTimeout(ms, () => req.destroy(new Error(`no answer in ${ms} ms`)));
    }
    req.on('error', reject);
    req.end(signed.body);
  });
}

function typeOf(body: Buffer): number | undefined {
  try {
    const type = (JSON.parse(body.toString('utf8')) as { type?: unknown }).type;
    return typeof type === 'number' ? type : undefined;
  } catch {
    return undefined;
  }
}
