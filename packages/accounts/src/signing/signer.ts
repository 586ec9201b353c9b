import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * HMAC-SHA256 over a purpose and its fields, so a value signed for one use (a CSRF token, an
 * install grant, a checkout link) never verifies for another. Comparisons are constant-time.
 */
export class Signer {
  readonly #secret: Buffer;

  constructor(secret: string) {
    if (secret.length < 32) throw new Error('a signing secret needs at least 32 characters');
    this.#secret = Buffer.from(secret, 'utf8');
  }

  sign(purpose: string, fields: readonly string[]): string {
    const mac = createHmac('sha256', this.#secret);
    // Length-prefixed, so ["ab", "c"] and ["a", "bc"] never collide.
    for (const part of [purpose, ...fields]) mac.update(`${part.length}:${part};`);
    return mac.digest('base64url');
  }

  verify(purpose: string, fields: readonly string[], signature: unknown): boolean {
    if (typeof signature !== 'string' || signature.length === 0 || signature.length > 100) return false;
    const expected = Buffer.from(this.sign(purpose, fields));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /** A signature that stops verifying after `ttlSeconds`: "<expiry>.<mac>". */
  issue(purpose: string, fields: readonly string[], ttlSeconds: number, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + ttlSeconds;
    return `${expires}.${this.sign(purpose, [...fields, String(expires)])}`;
  }

  check(purpose: string, fields: readonly string[], token: unknown, now = Date.now()): boolean {
    if (typeof token !== 'string') return false;
    const dot = token.indexOf('.');
    const expires = Number(token.slice(0, dot));
    if (dot <= 0 || !Number.isSafeInteger(expires) || expires * 1000 <= now) return false;
    return this.verify(purpose, [...fields, String(expires)], token.slice(dot + 1));
  }
}
