import { describe, expect, it } from 'vitest';
import { createSignatureVerifier, generateDevKeyPair } from '../src/index.ts';

const discord = generateDevKeyPair();
const playground = generateDevKeyPair();
const stranger = generateDevKeyPair();
const verifier = createSignatureVerifier({ discord: discord.publicKeyHex, playground: playground.publicKeyHex });
const body = Buffer.from('{"type":1}');
const now = Date.now();
const ts = String(Math.floor(now / 1000));

describe('createSignatureVerifier', () => {
  it('accepts a signature over timestamp + raw body and names the key that made it', () => {
    expect(verifier.verify({ signature: discord.sign(ts, body), timestamp: ts, rawBody: body, nowMs: now })).toEqual({ ok: true, key: 'discord' });
    expect(verifier.verify({ signature: playground.sign(ts, body), timestamp: ts, rawBody: body, nowMs: now })).toEqual({ ok: true, key: 'playground' });
  });

  it.each([
    ['missing signature', { signature: undefined, timestamp: ts, rawBody: body }, 'missing-headers'],
    ['missing timestamp', { signature: discord.sign(ts, body), timestamp: undefined, rawBody: body }, 'missing-headers'],
    ['a key nobody configured', { signature: stranger.sign(ts, body), timestamp: ts, rawBody: body }, 'bad-signature'],
    ['one altered body byte', { signature: discord.sign(ts, body), timestamp: ts, rawBody: Buffer.from('{"type":2}') }, 'bad-signature'],
    ['the body re-serialised with a space', { signature: discord.sign(ts, body), timestamp: ts, rawBody: Buffer.from('{"type": 1}') }, 'bad-signature'],
    ['a swapped timestamp', { signature: discord.sign(ts, body), timestamp: String(Number(ts) - 1), rawBody: body }, 'bad-signature'],
    ['a signature that is not hex', { signature: 'zz'.repeat(64), timestamp: ts, rawBody: body }, 'malformed-signature'],
    ['a short signature', { signature: discord.sign(ts, body).slice(2), timestamp: ts, rawBody: body }, 'malformed-signature'],
    ['a timestamp that is not a number', { signature: discord.sign('abc', body), timestamp: 'abc', rawBody: body }, 'malformed-timestamp'],
  ])('refuses %s', (_name, input, reason) => {
    expect(verifier.verify({ ...input, nowMs: now })).toEqual({ ok: false, reason });
  });

  it('refuses a correctly signed request older or newer than five minutes', () => {
    const old = String(Math.floor(now / 1000) - 301);
    const future = String(Math.floor(now / 1000) + 301);
    expect(verifier.verify({ signature: discord.sign(old, body), timestamp: old, rawBody: body, nowMs: now })).toEqual({ ok: false, reason: 'stale-timestamp' });
    expect(verifier.verify({ signature: discord.sign(future, body), timestamp: future, rawBody: body, nowMs: now })).toEqual({ ok: false, reason: 'stale-timestamp' });
    const edge = String(Math.floor(now / 1000) - 299);
    expect(verifier.verify({ signature: discord.sign(edge, body), timestamp: edge, rawBody: body, nowMs: now }).ok).toBe(true);
  });
});
