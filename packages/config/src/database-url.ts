import { AppError } from '@brain/errors';

export interface PostgresTarget {
  url: string;
  /** host:port/database, safe to print: no user, no password. */
  display: string;
  port: number;
}

/**
 * Validates DATABASE_URL without ever echoing it back: a URL usually carries a password.
 */
export function parseDatabaseUrl(raw: string): PostgresTarget {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('it is not a URL');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw invalid(`its scheme is "${url.protocol.replace(/:$/, '')}", not postgres or postgresql`);
  }
  if (!url.hostname) throw invalid('it has no host');
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres';
  const port = url.port ? Number(url.port) : 5432;
  return { url: raw, display: `${url.hostname}:${port}/${database}`, port };
}

function invalid(reason: string): AppError {
  return new AppError({
    code: 'CONFIG_INVALID',
    message: `DATABASE_URL is malformed: ${reason}`,
    nextStep:
      'Set it to postgres://USER:PASSWORD@HOST:5432/DATABASE (on Supabase: Project Settings → Database → Connection string), or unset it to use the embedded database.',
    httpStatus: 400,
  });
}
