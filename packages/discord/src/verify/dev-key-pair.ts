import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

export interface DevKeyPair {
  /** 64 hex characters, the form Discord's portal shows and DISCORD_PUBLIC_KEY takes. */
  publicKeyHex: string;
  /** PKCS#8 PEM, to hand the same pair to another process (the ACK benchmark's load generator). */
  privateKeyPem: string;
  /** Signs like Discord does: the timestamp header, then the raw body. */
  sign(timestamp: string, body: string | Buffer): string;
}

/**
 * An Ed25519 key pair made at startup for the playground (and for tests and the ACK benchmark):
 * it signs interactions the way Discord does, so they go through the same verification.
 */
export function generateDevKeyPair(): DevKeyPair {
  return devKeyPair(generateKeyPairSync('ed25519').privateKey);
}

export function devKeyPairFromPem(pem: string): DevKeyPair {
  return devKeyPair(createPrivateKey(pem));
}

function devKeyPair(privateKey: KeyObject): DevKeyPair {
  const jwk = privateKey.export({ format: 'jwk' });
  return {
    publicKeyHex: Buffer.from(String(jwk.x), 'base64url').toString('hex'),
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    sign: (timestamp, body) => sign(null, Buffer.concat([Buffer.from(timestamp), Buffer.from(body)]), privateKey).toString('hex'),
  };
}
