// npm run bench <name> [-- options]: runs bench/<name>/main.ts, e.g. `npm run bench retrieval -- --help`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const available = readdirSync(here, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(here, entry.name, 'main.ts')))
  .map((entry) => entry.name);
const [name, ...rest] = process.argv.slice(2);

if (!name || !available.includes(name)) {
  console.error(`Usage: npm run bench <name> [-- options]. Benchmarks: ${available.join(', ')}.`);
  process.exit(2);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', join(here, name, 'main.ts'), ...rest], { stdio: 'inherit' });
process.exit(result.status ?? 1);
