import type { TokenPurpose } from '../tokens/one-time-token.ts';

export interface MagicLinkMessage {
  to: string;
  purpose: TokenPurpose;
  /** Our confirm page with the one-time token, built from PUBLIC_URL. */
  url: string;
  workspaceName: string;
  expiresAt: Date;
}

/**
 * What came back with the link besides our own token: Supabase adds its `token_hash`, which the
 * server verifies so Supabase Auth also knows the address was proven.
 */
export interface MailboxProof {
  email: string;
  tokenHash?: string | undefined;
  type?: string | undefined;
}

/** How a magic link reaches a mailbox. */
export interface MagicLinkMailer {
  readonly kind: 'supabase' | 'dev-outbox';
  send(message: MagicLinkMessage): Promise<void>;
  /** Resolves when the proof holds for this address; throws an AppError otherwise. */
  verify(proof: MailboxProof): Promise<void>;
}
