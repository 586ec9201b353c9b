import { AppError } from '@brain/errors';

// Deliberately plain: the mailbox proves the address, this only keeps obvious typos and
// header-injection characters out before anything is stored or sent.
const SHAPE = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

/** Trimmed and lower-cased, so a claim and a later login with "Ana@X.com" meet on one value. */
export function normalizeEmail(raw: unknown): string {
  const email = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (email.length === 0 || email.length > 254 || !SHAPE.test(email)) {
    throw new AppError({
      code: 'EMAIL_INVALID',
      message: 'That does not look like an email address.',
      nextStep: 'Enter the address you want the link sent to, like ana@example.com.',
      httpStatus: 400,
    });
  }
  return email;
}

/** "a***@example.com": enough for the owner to recognise, not enough to harvest. */
export function maskEmail(email: string): string {
  const at = email.indexOf('@');
  if (at <= 0) return '***';
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}
