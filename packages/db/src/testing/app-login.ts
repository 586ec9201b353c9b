import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { testDatabaseUrl } from './backends.ts';

// Roles belong to the whole cluster, and suites of several packages run at once: one at a time.
const APP_LOGIN_LOCK_KEY = 7_246_003;

export interface AppLogin {
  /** The database's URL with brain_app and its password of the moment as the user. */
  url: string;
  release(): Promise<void>;
}

/**
 * Lets brain_app (the services' login role, 20261201070000) log in to the given database for as
 * long as the caller needs, as an operator enables it in production, then turns login off again.
 */
export async function enableAppLogin(databaseUrl: string): Promise<AppLogin> {
  const adminUrl = testDatabaseUrl();
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin`select pg_advisory_lock(${APP_LOGIN_LOCK_KEY})`;
  const password = randomBytes(12).toString('hex');
  try {
    await admin.unsafe(`alter role brain_app with login password '${password}'`);
  } catch (error) {
    await admin.end({ timeout: 5 });
    throw error;
  }
  const url = new URL(databaseUrl);
  url.username = 'brain_app';
  url.password = password;
  return {
    url: url.toString(),
    async release() {
      try {
        await admin.unsafe('alter role brain_app with nologin password null');
        await admin`select pg_advisory_unlock(${APP_LOGIN_LOCK_KEY})`;
      } finally {
        await admin.end({ timeout: 5 });
      }
    },
  };
}
