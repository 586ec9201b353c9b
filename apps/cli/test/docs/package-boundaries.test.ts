import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Record<string, string> | string>;
const dirs = (parent: string) => fs.readdirSync(path.join(root, parent)).filter((d) => fs.existsSync(path.join(root, parent, d, 'package.json')));
const appNames = dirs('apps').map((d) => readJson(path.join(root, 'apps', d, 'package.json')).name as string);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|js|mjs|cjs)$/.test(entry.name) ? [full] : [];
  });
}

/** Every module specifier a file imports, re-exports or loads dynamically. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

describe('packages never import apps', () => {
  it('knows the apps it guards against', () => {
    expect(appNames.sort()).toEqual(['@brain/cli', '@brain/web', '@brain/worker']);
  });

  it('no package declares an app as a dependency of any kind', () => {
    const offending = dirs('packages').flatMap((d) => {
      const pkg = readJson(path.join(root, 'packages', d, 'package.json'));
      const declared = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].flatMap((k) => Object.keys((pkg[k] as Record<string, string> | undefined) ?? {}));
      return declared.filter((name) => appNames.includes(name)).map((name) => `packages/${d}: ${name}`);
    });
    expect(offending).toEqual([]);
  });

  it('no file under packages/ (sources, tests, testing entries, benches) imports an app, by name or by path', () => {
    const files = sourceFiles(path.join(root, 'packages'));
    expect(files.length).toBeGreaterThan(100);
    const offending = files.flatMap((file) =>
      specifiers(fs.readFileSync(file, 'utf8'))
        .filter((s) => appNames.some((app) => s === app || s.startsWith(`${app}/`)) || (s.startsWith('.') && path.resolve(path.dirname(file), s).startsWith(path.join(root, 'apps') + path.sep)))
        .map((s) => `${path.relative(root, file)}: ${s}`),
    );
    expect(offending).toEqual([]);
  });
});
