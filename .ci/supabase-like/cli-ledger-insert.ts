// Writes, for each migration file, the INSERT that `supabase db push` runs with it: its version,
// name and statements as the CLI splits them (the splitter `brain migrate` uses for that ledger).
// Usage: npx tsx .ci/supabase-like/cli-ledger-insert.ts <out dir> supabase/migrations/*.sql
//   → <out dir>/<file name>.insert.sql
import fs from 'node:fs';
import path from 'node:path';
import { splitStatements } from '@brain/db';

const [outDir, ...files] = process.argv.slice(2);
if (!outDir || files.length === 0) throw new Error('usage: cli-ledger-insert.ts <out dir> <migration file>...');
const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;
for (const file of files) {
  const match = /^([0-9]+)_(.*)\.sql$/.exec(path.basename(file));
  if (!match) throw new Error(`not a migration file name: ${file}`);
  const statements = splitStatements(fs.readFileSync(file, 'utf8').replace(/\r\n/g, '\n'));
  fs.writeFileSync(
    path.join(outDir, `${path.basename(file)}.insert.sql`),
    `insert into supabase_migrations.schema_migrations (version, name, statements) values (${literal(match[1] as string)}, ${literal(match[2] as string)}, array(select s from jsonb_array_elements_text(${literal(JSON.stringify(statements))}::jsonb) with ordinality as t(s, n) order by n));\n`,
  );
}
