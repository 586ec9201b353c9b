import { AppError } from '@brain/errors';

export interface PostgresTarget {
  url: string;
  /** host:port/database, safe to print: no user, no password. */
  display: string;
  port: number;
}

/**
 * Validates DATABASE_URL (or BRAIN_MIGRATE_DATABASE_URL, named by `variable`) without ever
 * echoing it back: a URL usually carries a password.
 */
export function parseDatabaseUrl(raw: string, variable = 'DATABASE_URL'): PostgresTarget {
  const invalid = (reason: string) => invalidUrl(variable, reason);
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

function invalidUrl(variable: string, reason: string): AppError {
  return new AppError({
    code: 'CONFIG_INVALID',
    message: `${variable} is malformed: ${reason}`,
    nextStep:
      variable === 'DATABASE_URL'
        ? 'Set it to postgres://USER:PASSWORD@HOST:5432/DATABASE (on Supabase: Project Settings → Database → Connection string), or unset it to use the embedded database.'
        : `Set it to postgres://USER:PASSWORD@HOST:5432/DATABASE as the schema's owner (on Supabase: postgres, on the direct or session-pooler connection string), or unset it to migrate with DATABASE_URL.`,
    httpStatus: 400,
  });
}
