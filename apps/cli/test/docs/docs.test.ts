import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { brokenReason, relativeLinks, section } from './markdown.ts';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const read = (relative: string) => fs.readFileSync(path.join(root, relative), 'utf8');
const readme = read('README.md');
const docs = fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);

/** Every workspace directory (packages/*, apps/*), as the root package.json declares them. */
function workspaces(): { dir: string; name: string }[] {
  const globs = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;
  return globs.flatMap((glob) => {
    const parent = glob.replace(/\/\*$/, '');
    return fs
      .readdirSync(path.join(root, parent))
      .filter((d) => fs.existsSync(path.join(root, parent, d, 'package.json')))
      .map((d) => ({ dir: `${parent}/${d}`, name: (JSON.parse(read(`${parent}/${d}/package.json`)) as { name: string }).name }));
  });
}

describe('the README front page', () => {
  it('fits in 200 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });

  it('keeps the quickstart true: npm install, npm start and npm test, and CI runs that same test command', () => {
    const quickstart = section(readme, 'Quickstart');
    for (const command of ['npm install', 'npm start', 'npm test']) expect(quickstart).toMatch(new RegExp(`^${command}\\b`, 'm'));
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toBe('brain start');
    expect(scripts.test).toBeTruthy();
    expect(read('.ci/run')).toMatch(/^npm test\b/m);
  });

  it('names every package and app in its "Where is X" map, by directory and by package name', () => {
    const map = section(readme, 'Where is X');
    expect(map).not.toBe('');
    const missing = workspaces().filter(({ dir, name }) => !map.includes(`${dir}/`) || !map.includes(`(\`${name}`));
    expect(missing.map((w) => w.dir)).toEqual([]);
  });

  it('maps only to paths that exist', () => {
    const map = section(readme, 'Where is X');
    const paths = [...map.matchAll(/`((?:apps|packages|supabase|bench|eval|\.ci)\/[^`*]*)`/g)].map((m) => m[1]!);
    expect(paths.length).toBeGreaterThan(20);
    expect(paths.filter((p) => !fs.existsSync(path.join(root, p)))).toEqual([]);
  });
});

describe('links in the README and docs/', () => {
  it('resolve to a file, and to a heading of it when they name one', () => {
    const files = ['README.md', ...docs];
    const links = files.flatMap((f) => relativeLinks(path.join(root, f), read(f)));
    expect(links.length).toBeGreaterThan(30);
    const broken = links.flatMap((l) => {
      const reason = brokenReason(l);
      return reason ? [`${path.relative(root, l.file)}:${l.line} ${l.target}: ${reason}`] : [];
    });
    expect(broken).toEqual([]);
  });

  it('reach every page of docs/ from the front page', () => {
    const linked = new Set(relativeLinks(path.join(root, 'README.md'), readme).map((l) => l.target.split('#')[0]));
    expect(docs.filter((d) => !linked.has(d))).toEqual([]);
  });
});
