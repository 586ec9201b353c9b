/**
 * Whether a request's Origin may call /mcp (the MCP spec's DNS-rebinding rule). PUBLIC_URL's
 * origin, and this machine under any loopback spelling (localhost, 127.0.0.0/8, [::1]) on
 * PUBLIC_URL's port or the port the request came in on: a local page of this server has one of
 * those, whichever name the browser was given. A rebound page carries the attacker's name.
 */
export function mcpOriginAllowed(origin: string, publicUrl: string, localPort: number | undefined): boolean {
  const pub = new URL(publicUrl);
  if (origin === pub.origin) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin !== origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false;
  if (!isLoopbackHostname(url.hostname)) return false;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const ports = new Set([pub.port || (pub.protocol === 'https:' ? '443' : '80'), ...(localPort === undefined ? [] : [String(localPort)])]);
  return ports.has(port);
}

function isLoopbackHostname(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  // WHATWG URL has canonicalised IPv4 spellings already (127.1 → 127.0.0.1).
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
