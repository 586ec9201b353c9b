import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compiledMain, REPO_ROOT } from '../bin/compiled-main.js';
import { runCli } from './run-cli.ts';

/** A workspace of two TypeScript modules, one imported lazily, that print where they run from. */
function project(): { root: string; entry: string; cacheDir: string; write: (file: string, text: string) => void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'brain-compile-'));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  write('package.json', '{"type":"module"}');
  write('apps/app/src/place.ts', 'export const place: string = import.meta.url;\nexport const version = 1;\n');
  write('apps/app/src/lazy.ts', 'export const lazy: string = "loaded lazily";\n');
  write(
    'apps/app/src/main.ts',
    'import { place, version } from "./place.ts";\nconst { lazy } = await import("./lazy.ts");\nprocess.stdout.write(JSON.stringify({ place, version, lazy }));\n',
  );
  return { root, entry: path.join(root, 'apps/app/src/main.ts'), cacheDir: path.join(root, 'node_modules/.cache/brain'), write };
}

function run(url: string): { place: string; version: number; lazy: string } {
  const result = spawnSync(process.execPath, [fileURLToPath(url)], { encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { place: string; version: number; lazy: string };
}

describe('the compiled `brain`', () => {
  it('compiles once, keeps each module’s own import.meta.url, and compiles again after a source changes', async () => {
    const p = project();
    const first = await compiledMain(p);
    expect(first).toBeDefined();
    expect(fileURLToPath(first as string).startsWith(p.cacheDir)).toBe(true);
    expect(run(first as string)).toEqual({ place: pathToFileURL(path.join(p.root, 'apps/app/src/place.ts')).href, version: 1, lazy: 'loaded lazily' });

    // Unchanged sources: the same build, without compiling.
    expect(await compiledMain(p)).toBe(first);

    p.write('apps/app/src/place.ts', 'export const place: string = import.meta.url;\nexport const version = 22;\n');
    const second = await compiledMain(p);
    expect(second).not.toBe(first);
    expect(run(second as string).version).toBe(22);
  });

  it('does not keep a build whose input changed while it compiled', async () => {
    const p = project();
    // A save landing while esbuild reads the sources shows as a time after the compile started.
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(p.root, 'apps/app/src/place.ts'), later, later);
    const first = await compiledMain(p);
    expect(first).toBeDefined();
    const second = await compiledMain(p);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
  });

  it('declines, so that the sources run through tsx, when they do not compile or a package has dependencies of its own', async () => {
    const broken = project();
    broken.write('apps/app/src/place.ts', 'export const place: string = (;\n');
    expect(await compiledMain(broken)).toBeUndefined();

    const ownDependencies = project();
    ownDependencies.write('apps/app/node_modules/left-pad/package.json', '{"name":"left-pad"}');
    expect(await compiledMain(ownDependencies)).toBeUndefined();
  });

  it('is what `brain` runs: after a command, the cache names a build of apps/cli/src/main.ts', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'brain-compiled-'));
    const result = await runCli(['--help'], { BRAIN_DATA_DIR: dataDir });
    expect(result.code, result.stderr).toBe(0);
    const cacheDir = path.join(REPO_ROOT, 'node_modules/.cache/company-brain');
    const manifest = JSON.parse(fs.readFileSync(path.join(cacheDir, 'current.json'), 'utf8')) as { entry: string; build: string; main: string };
    expect(manifest.entry).toBe(path.join('apps', 'cli', 'src', 'main.ts'));
    expect(fs.existsSync(path.join(cacheDir, manifest.build, manifest.main))).toBe(true);
  });
});
