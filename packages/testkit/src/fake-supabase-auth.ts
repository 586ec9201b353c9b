import { randomBytes, randomUUID } from 'node:crypto';
import { startFakeHttpServer, type FakeHttpServer } from './fake-http-server.ts';

export interface FakeSupabaseEmail {
  to: string;
  /** The link as the project's Magic Link template renders it: {{ .RedirectTo }}&token_hash={{ .TokenHash }}&type=email */
  link: string;
  tokenHash: string;
}

export interface FakeSupabaseAuth {
  /** SUPABASE_URL */
  url: string;
  server: FakeHttpServer;
  /** Every email "sent", oldest first. */
  emails: FakeSupabaseEmail[];
  /** The answer to the next /otp call, e.g. { status: 429, code: 'over_email_send_rate_limit' }. */
  failNextSend(failure: { status: number; code: string; message?: string }): void;
  close(): Promise<void>;
}

/**
 * Supabase Auth (GoTrue) for magic links: POST /auth/v1/otp "sends" an email built from the
 * redirect URL and a fresh token_hash; POST /auth/v1/verify takes a token_hash once and answers
 * with a session, or 403 otp_expired as GoTrue does. Requests must carry the apikey.
 */
export async function startFakeSupabaseAuth(options: { apiKey: string }): Promise<FakeSupabaseAuth> {
  const server = await startFakeHttpServer('supabase-auth');
  const emails: FakeSupabaseEmail[] = [];
  const pending = new Map<string, { email: string; used: boolean }>();
  let nextFailure: { status: number; code: string; message?: string } | undefined;

  const unauthorized = (apikey: unknown) => apikey !== options.apiKey;

  server.on('POST', '/auth/v1/otp', (req) => {
    if (unauthorized(req.headers.apikey)) return { status: 401, body: { message: 'Invalid API key' } };
    if (nextFailure) {
      const failure = nextFailure;
      nextFailure = undefined;
      return { status: failure.status, body: { code: failure.status, error_code: failure.code, msg: failure.message ?? failure.code } };
    }
    const body = req.json as { email?: string } | undefined;
    const redirectTo = req.query.get('redirect_to');
    if (!body?.email || !redirectTo) return { status: 400, body: { code: 400, error_code: 'validation_failed', msg: 'email and redirect_to are required' } };
    const tokenHash = randomBytes(28).toString('hex');
    pending.set(tokenHash, { email: body.email.toLowerCase(), used: false });
    const link = new URL(redirectTo);
    link.searchParams.set('token_hash', tokenHash);
    link.searchParams.set('type', 'email');
    emails.push({ to: body.email, link: link.toString(), tokenHash });
    return { status: 200, body: {} };
  });

  server.on('POST', '/auth/v1/verify', (req) => {
    if (unauthorized(req.headers.apikey)) return { status: 401, body: { message: 'Invalid API key' } };
    const body = req.json as { token_hash?: string; type?: string } | undefined;
    const entry = pending.get(body?.token_hash ?? '');
    if (!entry || entry.used || (body?.type !== 'email' && body?.type !== 'magiclink')) {
      return { status: 403, body: { code: 403, error_code: 'otp_expired', msg: 'Email link is invalid or has expired' } };
    }
    entry.used = true;
    const now = Math.floor(Date.now() / 1000);
    return {
      body: {
        access_token: randomBytes(24).toString('base64url'),
        token_type: 'bearer',
        expires_in: 3600,
        expires_at: now + 3600,
        refresh_token: randomBytes(12).toString('base64url'),
        user: {
          id: randomUUID(),
          aud: 'authenticated',
          role: 'authenticated',
          email: entry.email,
          email_confirmed_at: new Date().toISOString(),
          app_metadata: { provider: 'email', providers: ['email'] },
          user_metadata: {},
          created_at: new Date().toISOString(),
        },
      },
    };
  });

  return {
    url: server.url,
    server,
    emails,
    failNextSend(failure) {
      nextFailure = failure;
    },
    close: () => server.close(),
  };
}
