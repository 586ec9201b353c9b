import { createClient, type SupabaseClient, type SupabaseClientOptions } from '@supabase/supabase-js';
import { AppError } from '@brain/errors';
import WebSocket from 'ws';
import type { MagicLinkMailer, MagicLinkMessage, MailboxProof } from './mailer.ts';

// ws's constructor is wider than realtime-js's structural type (it also takes a URL object).
type RealtimeTransport = NonNullable<NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']>;

export interface SupabaseMailerOptions {
  url: string;
  serviceRoleKey: string;
  fetch?: typeof fetch;
}

/**
 * Magic links through Supabase Auth. `signInWithOtp` sends Supabase's email, whose link is our
 * confirm page (emailRedirectTo, carrying our one-time token) plus Supabase's `token_hash`
 * (the Magic Link template: `{{ .RedirectTo }}&token_hash={{ .TokenHash }}&type=email`). The
 * confirm POST then calls `verifyOtp({ token_hash, type: 'email' })` on the server: no PKCE
 * verifier and no URL fragment, so it works from whatever device opens the mail.
 */
export class SupabaseMailer implements MagicLinkMailer {
  readonly kind = 'supabase' as const;
  // Only .auth is used; the database generics do not matter here.
  readonly #client: Pick<SupabaseClient, 'auth'>;

  constructor(options: SupabaseMailerOptions) {
    this.#client = createClient<unknown>(options.url, options.serviceRoleKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      // Node 20 has no global WebSocket, and createClient() throws without a transport.
      realtime: { transport: WebSocket as unknown as RealtimeTransport },
      ...(options.fetch ? { global: { fetch: options.fetch } } : {}),
    });
  }

  async send(message: MagicLinkMessage): Promise<void> {
    const { error } = await this.#client.auth.signInWithOtp({
      email: message.to,
      options: { emailRedirectTo: message.url, shouldCreateUser: true },
    });
    if (error) {
      throw new AppError({
        code: error.status === 429 ? 'MAIL_RATE_LIMITED' : 'MAIL_SEND_FAILED',
        message: `Supabase Auth refused to send the ${message.purpose} link: ${error.message} (${error.status ?? 'no status'}, ${error.code ?? 'no code'})`,
        userMessage: 'The email could not be sent.',
        nextStep: 'Request a new link in a minute; if it keeps failing, check the Supabase Auth email settings.',
        httpStatus: 502,
        retryable: true,
        cause: error,
      });
    }
  }

  async verify(proof: MailboxProof): Promise<void> {
    if (!proof.tokenHash) {
      throw new AppError({
        code: 'MAILBOX_PROOF_MISSING',
        message: 'The link carries no token_hash: the Supabase Magic Link template does not add it.',
        userMessage: 'This link is incomplete.',
        nextStep: 'Open the link exactly as it arrived in the email, or request a new one.',
        httpStatus: 400,
      });
    }
    const { data, error } = await this.#client.auth.verifyOtp({ token_hash: proof.tokenHash, type: 'email' });
    if (error || !data.user) {
      const transient = !error || error.status === undefined || error.status >= 500 || error.status === 429;
      throw new AppError({
        code: transient ? 'MAILBOX_VERIFY_UNAVAILABLE' : 'MAILBOX_PROOF_INVALID',
        message: `Supabase Auth did not verify the link: ${error?.message ?? 'no user returned'}`,
        userMessage: transient ? 'We could not check this link just now.' : 'This link has already been used or has expired.',
        nextStep: transient ? 'Press the button again in a minute.' : 'Request a new link.',
        httpStatus: transient ? 502 : 400,
        retryable: transient,
        ...(error ? { cause: error } : {}),
      });
    }
    if ((data.user.email ?? '').toLowerCase() !== proof.email) {
      throw new AppError({
        code: 'MAILBOX_PROOF_MISMATCH',
        message: 'Supabase verified a different address than the one the token was issued to.',
        userMessage: 'This link was issued for a different email address.',
        nextStep: 'Request a new link for the address you want to use.',
        httpStatus: 400,
      });
    }
  }
}
