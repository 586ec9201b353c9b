/** Cookie header parsing and Set-Cookie serialising: the little this app needs, without a dependency. */
export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (!(name in out)) {
      try {
        out[name] = decodeURIComponent(value);
      } catch {
        out[name] = value;
      }
    }
  }
  return out;
}

export interface CookieOptions {
  path: string;
  maxAgeSeconds: number;
  secure: boolean;
  /** Lax unless said: the dashboard's cookies must survive the magic link's top-level navigation. */
  sameSite?: 'Lax' | 'Strict';
}

export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${options.path}`, `Max-Age=${options.maxAgeSeconds}`, 'HttpOnly', `SameSite=${options.sameSite ?? 'Lax'}`];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
