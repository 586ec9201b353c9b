import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compiledEntries, REPO_ROOT } from '../bin/compiled-main.js';
import { THREAD_ENTRIES } from '../bin/thread-entries.js';
import { runCli } from './run-cli.ts';

/** A workspace of two TypeScript modules, one imported lazily, that print where they run from. */
function project(): { root: string; entries: string[]; cacheDir: string; write: (file: string, text: string) => void } {
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
  write('apps/app/src/thread.ts', 'import { place } from "./place.ts";\nprocess.stdout.write(JSON.stringify({ thread: place }));\n');
  return { root, entries: [path.join(root, 'apps/app/src/main.ts'), path.join(root, 'apps/app/src/thread.ts')], cacheDir: path.join(root, 'node_modules/.cache/brain'), write };
}

/** The compiled main module's URL, as `brain` imports it. */
async function compiledMain(p: ReturnType<typeof project>): Promise<string | undefined> {
  const urls = await compiledEntries(p);
  return urls?.[pathToFileURL(p.entries[0] as string).href];
}

function run<T = { place: string; version: number; lazy: string }>(url: string): T {
  const result = spawnSync(process.execPath, [fileURLToPath(url)], { encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
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

    // The second entry (a thread's, in `brain`) is compiled in the same build, sharing its modules.
    const urls = (await compiledEntries(p)) ?? {};
    const thread = urls[pathToFileURL(p.entries[1] as string).href];
    expect(thread && fileURLToPath(thread).startsWith(p.cacheDir)).toBe(true);
    expect(run<{ thread: string }>(thread as string)).toEqual({ thread: pathToFileURL(path.join(p.root, 'apps/app/src/place.ts')).href });

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
    const manifest = JSON.parse(fs.readFileSync(path.join(cacheDir, 'current.json'), 'utf8')) as { build: string; outputs: Record<string, string> };
    expect(Object.keys(manifest.outputs)).toEqual([path.join('apps', 'cli', 'src', 'main.ts'), ...THREAD_ENTRIES.map((entry) => path.join(...entry.split('/')))]);
    for (const output of Object.values(manifest.outputs)) expect(fs.existsSync(path.join(cacheDir, manifest.build, output))).toBe(true);
  });

  it('starts every thread and child process from its compiled entry when `brain` names one, and every such entry is compiled', () => {
    const bootstraps = ['apps', 'packages'].flatMap((group) =>
      fs
        .readdirSync(path.join(REPO_ROOT, group), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('bootstrap.mjs') && !file.includes('node_modules'))
        .map((file) => path.join(REPO_ROOT, group, file)),
    );
    expect(bootstraps.length).toBe(THREAD_ENTRIES.length);
    const stand = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'brain-entry-')), 'compiled-entry.mjs');
    fs.writeFileSync(stand, 'process.stdout.write("the compiled entry ran");\n');
    for (const bootstrap of bootstraps) {
      const entry = /new URL\('(\.\/[\w-]+\.ts)', import\.meta\.url\)/.exec(fs.readFileSync(bootstrap, 'utf8'))?.[1];
      expect(entry, bootstrap).toBeDefined();
      const source = new URL(entry as string, pathToFileURL(bootstrap));
      expect(THREAD_ENTRIES).toContain(path.relative(REPO_ROOT, fileURLToPath(source)).split(path.sep).join('/'));
      // Run as a plain process: the bootstrap must import the compiled URL instead of its source.
      const result = spawnSync(process.execPath, [bootstrap], {
        encoding: 'utf8',
        env: { ...process.env, BRAIN_COMPILED_ENTRIES: JSON.stringify({ [source.href]: pathToFileURL(stand).href }) },
      });
      expect(result.stdout, `${bootstrap}: ${result.stderr}`).toBe('the compiled entry ran');
    }
  });
});
