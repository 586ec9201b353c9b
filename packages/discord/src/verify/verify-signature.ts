import { createPublicKey, verify, type KeyObject } from 'node:crypto';

/** DER prefix of an Ed25519 SubjectPublicKeyInfo; the 32 raw key bytes follow it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const SIGNATURE_HEX = /^[0-9a-f]{128}$/i;
const TIMESTAMP = /^\d{1,12}$/;

/** How far a signed timestamp may be from our clock, either way. Discord does not require it: replay hardening. */
export const SIGNATURE_MAX_AGE_SECONDS = 5 * 60;

export type SignatureCheck<K extends string> =
  | { ok: true; key: K }
  | { ok: false; reason: 'missing-headers' | 'malformed-signature' | 'malformed-timestamp' | 'stale-timestamp' | 'bad-signature' };

export interface SignatureVerifier<K extends string> {
  verify(input: { signature: string | undefined; timestamp: string | undefined; rawBody: Buffer; nowMs?: number }): SignatureCheck<K>;
}

/** A 64-character hex Ed25519 public key, as Discord's developer portal shows it, as a KeyObject. */
export function ed25519PublicKey(hex: string): KeyObject {
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error('An Ed25519 public key is 64 hex characters.');
  return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(hex, 'hex')]), format: 'der', type: 'spki' });
}

/**
 * Checks `X-Signature-Ed25519` over `X-Signature-Timestamp + raw body`, exactly as Discord signs
 * it, against one or more named keys (Discord's, and the playground's dev key when it is on).
 * Nothing of the body is parsed before this says yes. Ed25519 verification itself runs in
 * constant time for a given length; the cheap shape checks before it reveal nothing secret.
 */
export function createSignatureVerifier<K extends string>(keys: Record<K, string>): SignatureVerifier<K> {
  const entries = (Object.entries(keys) as [K, string][]).map(([name, hex]) => [name, ed25519PublicKey(hex)] as const);
  if (entries.length === 0) throw new Error('A signature verifier needs at least one public key.');
  return {
    verify({ signature, timestamp, rawBody, nowMs = Date.now() }) {
      if (!signature || !timestamp) return { ok: false, reason: 'missing-headers' };
      if (!SIGNATURE_HEX.test(signature)) return { ok: false, reason: 'malformed-signature' };
      if (!TIMESTAMP.test(timestamp)) return { ok: false, reason: 'malformed-timestamp' };
      const message = Buffer.concat([Buffer.from(timestamp, 'utf8'), rawBody]);
      const sig = Buffer.from(signature, 'hex');
      const key = entries.find(([, publicKey]) => verify(null, message, publicKey, sig));
      if (!key) return { ok: false, reason: 'bad-signature' };
      // Checked after the signature, so the timestamp is known to be the signer's.
      if (Math.abs(nowMs / 1000 - Number(timestamp)) > SIGNATURE_MAX_AGE_SECONDS) return { ok: false, reason: 'stale-timestamp' };
      return { ok: true, key: key[0] };
    },
  };
}
