import { loadMigrations, migrate, migrationsFingerprint, openPostgres } from '../index.ts';
import postgres from 'postgres';

const TEMPLATE_LOCK_KEY = 7_246_002;

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * A migrated template database, built once per set of migrations; each suite then gets a copy
 * with CREATE DATABASE … TEMPLATE, which takes a fraction of a second.
 */
export async function postgresTemplate(adminUrl: string): Promise<string> {
  const name = `brain_tpl_${migrationsFingerprint(loadMigrations())}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin`select pg_advisory_lock(${TEMPLATE_LOCK_KEY})`;
    try {
      const exists = await admin`select 1 from pg_database where datname = ${name}`;
      if (exists.length > 0) return name;
      const building = `${name}_building`;
      await admin.unsafe(`drop database if exists ${building}`);
      await admin.unsafe(`create database ${building}`);
      const db = openPostgres({ url: withDatabase(adminUrl, building), display: building, prepare: true, maxConnections: 1 });
      try {
        await migrate(db);
      } finally {
        await db.close();
      }
      await admin.unsafe(`alter database ${building} rename to ${name}`);
      return name;
    } finally {
      await admin`select pg_advisory_unlock(${TEMPLATE_LOCK_KEY})`;
    }
  } finally {
    await admin.end({ timeout: 5 });
  }
}
