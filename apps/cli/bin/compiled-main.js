// Plain JavaScript on purpose: it runs before TypeScript support exists in this process.
//
// `brain` is TypeScript that runs without a build step. Loading it through tsx's loader sends
// every module, the dependencies' JavaScript included, through a hooks thread: `brain --help`
// cost 3.4 CPU s and `brain sources` 3.0. Compiled into one cached bundle (esbuild, the compiler
// tsx itself uses), with its threads' entries, the dependencies load natively: 1.5 and 1.8 (npm
// run bench startup). The first run after a change to the sources compiles (about 0.5 s); later
// runs check that no compiled input changed (one stat per file) and load the bundle.
//
// Anything unexpected (no esbuild, a read-only node_modules, a compile error) returns undefined
// and the caller runs the sources through tsx as before, which reports a real compile error.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const MANIFEST = 'current.json';
const FORMAT = 2;
/** Builds kept besides the current one; older ones go once they are an hour old (a process started from one may still load its chunks). */
const KEEP_BUILDS = 3;
const OLD_BUILD_MS = 60 * 60 * 1000;

/**
 * The compiled `entries` (absolute paths to .ts files under `root`: the process's main module, then
 * the modules its threads and child processes start from), compiling them together into `cacheDir`
 * first when no valid build is there: a map from each entry's source file URL to its compiled file
 * URL, or undefined when they cannot be compiled.
 */
export async function compiledEntries({ root, entries, cacheDir }) {
  try {
    const relative = entries.map((entry) => path.relative(root, entry));
    const current = readCurrent(root, cacheDir, relative);
    if (current) return current;
    return await compile(root, entries, cacheDir);
  } catch {
    return undefined;
  }
}

/** The current build's entries when it was compiled from these entries and every input it read is unchanged. */
function readCurrent(root, cacheDir, entries) {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(cacheDir, MANIFEST), 'utf8'));
  } catch {
    return undefined;
  }
  if (manifest.format !== FORMAT || manifest.node !== process.version || JSON.stringify(Object.keys(manifest.outputs)) !== JSON.stringify(entries)) return undefined;
  for (const [file, [mtimeMs, size]] of Object.entries(manifest.inputs)) {
    const stat = fs.statSync(path.join(root, file), { throwIfNoEntry: false });
    if (!stat || stat.mtimeMs !== mtimeMs || stat.size !== size) return undefined;
  }
  const urls = {};
  for (const [entry, output] of Object.entries(manifest.outputs)) {
    const compiled = path.join(cacheDir, manifest.build, output);
    if (!fs.existsSync(compiled)) return undefined;
    urls[pathToFileURL(path.join(root, entry)).href] = pathToFileURL(compiled).href;
  }
  return urls;
}

async function compile(root, entries, cacheDir) {
  // A workspace package with dependencies of its own would resolve them differently from the
  // bundle's folder than from its sources: keep to the sources then.
  if (workspaceDirs(root).some((dir) => hasOwnDependencies(path.join(root, dir)))) return undefined;
  const esbuild = await import('esbuild');
  const buildName = `b-${Date.now().toString(36)}-${crypto.randomBytes(4).toString('hex')}`;
  const outdir = path.join(cacheDir, buildName);
  const started = Date.now();
  // esbuild compiles in a child process of its own; stopped once done, it holds no memory in a server.
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: entries,
    outdir,
    bundle: true,
    // Each lazily imported command stays a chunk of its own, with its dependencies' imports.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node.split('.')[0]}`,
    metafile: true,
    logLevel: 'silent',
    plugins: [sourcesOnly()],
  }).finally(() => esbuild.stop());
  const inputs = {};
  for (const file of [...Object.keys(result.metafile.inputs), ...settingsFiles(root)]) {
    const stat = fs.statSync(path.join(root, file));
    inputs[file] = [stat.mtimeMs, stat.size];
  }
  const outputs = {};
  const urls = {};
  for (const entry of entries) {
    const entryInput = path.relative(root, entry).split(path.sep).join('/');
    const output = Object.entries(result.metafile.outputs).find(([, built]) => built.entryPoint === entryInput)?.[0];
    if (!output) return undefined;
    outputs[path.relative(root, entry)] = path.relative(outdir, path.join(root, output));
    urls[pathToFileURL(entry).href] = pathToFileURL(path.join(root, output)).href;
  }
  // A file saved while esbuild read the sources may be compiled as it was before: this run uses the
  // build, and the next one compiles again rather than trust it.
  if (Object.values(inputs).some(([mtimeMs]) => mtimeMs > started)) return urls;
  const manifest = { format: FORMAT, node: process.version, build: buildName, outputs, inputs };
  // Another `brain` may be compiling at the same moment: each writes its own build and the manifest
  // is replaced whole, so a reader sees one build or the other, never half of one.
  const temporary = path.join(cacheDir, `${MANIFEST}.${buildName}`);
  fs.writeFileSync(temporary, JSON.stringify(manifest));
  fs.renameSync(temporary, path.join(cacheDir, MANIFEST));
  removeOldBuilds(cacheDir, buildName);
  return urls;
}

/**
 * Bundles the workspace's own sources and leaves every dependency to Node. Each module keeps its
 * own `import.meta.url`, so the files it finds beside itself (migrations, thread entry points,
 * assets) are found from the bundle too.
 */
function sourcesOnly() {
  return {
    name: 'brain-sources-only',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@brain/') ? undefined : { path: args.path, external: true }));
      build.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
        const source = fs.readFileSync(args.path, 'utf8');
        return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js' };
      });
    },
  };
}

function workspaceDirs(root) {
  return ['apps', 'packages'].flatMap((group) => {
    const dir = path.join(root, group);
    if (!fs.existsSync(dir)) return [];
    return fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => path.join(group, d.name));
  });
}

function hasOwnDependencies(dir) {
  const modules = path.join(dir, 'node_modules');
  return fs.existsSync(modules) && fs.readdirSync(modules).some((name) => !name.startsWith('.'));
}

/** Files that change how the sources compile or resolve without being compiled themselves, this one included. */
function settingsFiles(root) {
  const candidates = [path.relative(root, fileURLToPath(import.meta.url)), 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.base.json', ...workspaceDirs(root).flatMap((dir) => [path.join(dir, 'package.json'), path.join(dir, 'tsconfig.json')])];
  return candidates.filter((file) => fs.existsSync(path.join(root, file)));
}

function removeOldBuilds(cacheDir, keep) {
  const builds = fs
    .readdirSync(cacheDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name.startsWith('b-') && d.name !== keep)
    .map((d) => ({ name: d.name, at: fs.statSync(path.join(cacheDir, d.name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const old of builds.slice(KEEP_BUILDS)) {
    if (Date.now() - old.at > OLD_BUILD_MS) fs.rmSync(path.join(cacheDir, old.name), { recursive: true, force: true });
  }
  for (const name of fs.readdirSync(cacheDir)) {
    // A manifest left by a process that died between writing and renaming it.
    if (name.startsWith(`${MANIFEST}.`) && Date.now() - fs.statSync(path.join(cacheDir, name)).mtimeMs > OLD_BUILD_MS) fs.rmSync(path.join(cacheDir, name), { force: true });
  }
}

/** The repository's root, from this file's place in it. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
