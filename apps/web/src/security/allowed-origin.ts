import type { FastifyRequest } from 'fastify';

// What a Host header may hold: a name or an IP literal, and a port. Anything else is refused
// before it reaches the URL parser (which would read `a@b` as a user name).
const HOST_HEADER = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

function isLoopbackHostname(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  // WHATWG URL has canonicalised IPv4 spellings already (127.1, 0x7f.0.0.1 → 127.0.0.1).
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * The origin a browser request may act under, decided from its `Host` header alone: PUBLIC_URL's
 * origin when it names PUBLIC_URL's host and port, `http://<host>` when it names this machine
 * (localhost, 127.0.0.0/8, [::1], any port), and undefined otherwise. A page reached through
 * DNS rebinding carries the attacker's name in Host, so it gets undefined. The raw header, never
 * X-Forwarded-Host: a rebound page is same-origin with us and may set any header it likes.
 */
export function allowedOrigin(request: FastifyRequest, publicUrl: string): string | undefined {
  const raw = request.headers.host;
  if (typeof raw !== 'string' || !HOST_HEADER.test(raw)) return undefined;
  const pub = new URL(publicUrl);
  try {
    // Read with PUBLIC_URL's scheme, so its default port compares equal however it is spelled.
    if (new URL(`${pub.protocol}//${raw}`).host === pub.host) return pub.origin;
    const local = new URL(`http://${raw}`);
    if (isLoopbackHostname(local.hostname)) return local.origin;
  } catch {
    return undefined;
  }
  return undefined;
}

/** The host people should use instead, for the refusal's next step. */
export function expectedHost(publicUrl: string): string {
  return new URL(publicUrl).host;
}
