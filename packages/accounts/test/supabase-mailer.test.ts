import { afterAll, beforeAll, expect, it } from 'vitest';
import { isAppError } from '@brain/errors';
import { closedLoopbackUrl, startFakeSupabaseAuth, type FakeSupabaseAuth } from '@brain/testkit';
import { SupabaseMailer } from '../src/index.ts';

let supabase: FakeSupabaseAuth;
let mailer: SupabaseMailer;
beforeAll(async () => {
  supabase = await startFakeSupabaseAuth({ apiKey: 'service-role-key' });
  // Constructing the client is itself the Node 20 check: without a realtime transport it throws here.
  mailer = new SupabaseMailer({ url: supabase.url, serviceRoleKey: 'service-role-key' });
});
afterAll(() => supabase.close());

const message = (to: string) => ({
  to,
  purpose: 'claim' as const,
  url: 'https://brain.example.com/claim/confirm?token=abc',
  workspaceName: 'Readers',
  expiresAt: new Date(Date.now() + 600_000),
});

it(`runs on this Node (${process.version}) and sends with signInWithOtp, our confirm URL as emailRedirectTo`, async () => {
  await mailer.send(message('ana@example.com'));
  const otp = supabase.server.requests.find((r) => r.path === '/auth/v1/otp');
  expect(otp?.query.get('redirect_to')).toBe('https://brain.example.com/claim/confirm?token=abc');
  expect(otp?.json).toMatchObject({ email: 'ana@example.com', create_user: true });
  expect(otp?.headers.apikey).toBe('service-role-key');
  const email = supabase.emails.at(-1);
  expect(email?.link).toMatch(/^https:\/\/brain\.example\.com\/claim\/confirm\?token=abc&token_hash=[0-9a-f]+&type=email$/);
});

it('verifies the token_hash on the server once, for the address it was sent to', async () => {
  await mailer.send(message('bo@example.com'));
  const tokenHash = supabase.emails.at(-1)?.tokenHash;
  await expect(mailer.verify({ email: 'bo@example.com', tokenHash, type: 'email' })).resolves.toBeUndefined();
  expect(supabase.server.requests.at(-1)?.json).toMatchObject({ token_hash: tokenHash, type: 'email' });
  const replay = await mailer.verify({ email: 'bo@example.com', tokenHash, type: 'email' }).catch((e: unknown) => e);
  expect(isAppError(replay, 'MAILBOX_PROOF_INVALID')).toBe(true);

  await mailer.send(message('cy@example.com'));
  const other = await mailer.verify({ email: 'someone-else@example.com', tokenHash: supabase.emails.at(-1)?.tokenHash }).catch((e: unknown) => e);
  expect(isAppError(other, 'MAILBOX_PROOF_MISMATCH')).toBe(true);
  const missing = await mailer.verify({ email: 'cy@example.com' }).catch((e: unknown) => e);
  expect(isAppError(missing, 'MAILBOX_PROOF_MISSING')).toBe(true);
});

it("turns Supabase's refusals into errors that say what to do", async () => {
  supabase.failNextSend({ status: 429, code: 'over_email_send_rate_limit', message: 'email rate limit exceeded' });
  const limited = await mailer.send(message('dee@example.com')).catch((e: unknown) => e);
  expect(isAppError(limited, 'MAIL_RATE_LIMITED')).toBe(true);
  const down = new SupabaseMailer({ url: await closedLoopbackUrl(), serviceRoleKey: 'k' });
  const unreachable = await down.send(message('dee@example.com')).catch((e: unknown) => e);
  expect(isAppError(unreachable) && unreachable.code.startsWith('MAIL_')).toBe(true);
});
