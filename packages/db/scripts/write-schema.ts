// npm run db:schema: rewrites supabase/schema.sql from a fresh migration on PostgreSQL 15. Uses the
// server TEST_DATABASE_URL names, or a throwaway cluster of its own (.ci/start-postgres.sh).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { dumpMigratedSchema, SCHEMA_FILE, testDatabaseUrl } from '../src/testing/index.ts';

const root = path.dirname(path.dirname(SCHEMA_FILE));
let url = testDatabaseUrl();
let stop: (() => void) | undefined;
if (!url) {
  const printed = execFileSync('bash', [path.join(root, '.ci/start-postgres.sh')], { encoding: 'utf8' });
  const vars = Object.fromEntries([...printed.matchAll(/^export (\w+)=(.*)$/gm)].map((m): [string, string] => [m[1] ?? '', m[2] ?? '']));
  url = vars.TEST_DATABASE_URL;
  stop = () => execFileSync('bash', [path.join(root, '.ci/stop-postgres.sh')], { env: { ...process.env, BRAIN_CI_PGDATA: vars.BRAIN_CI_PGDATA }, stdio: 'inherit' });
}
try {
  const text = await dumpMigratedSchema(url as string);
  const before = fs.existsSync(SCHEMA_FILE) ? fs.readFileSync(SCHEMA_FILE, 'utf8') : '';
  fs.writeFileSync(SCHEMA_FILE, text);
  console.log(`${path.relative(process.cwd(), SCHEMA_FILE)}: ${before === text ? 'unchanged' : 'rewritten'} (${text.split('\n').length} lines)`);
} finally {
  stop?.();
}
