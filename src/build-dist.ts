/**
 * The CLI as plain JavaScript, so `lock-oracles` starts with plain node and no loader
 * (bin/lock-oracles.js calls this when a source changed). src/cli.ts, the public entries
 * (src/index.ts, src/vitest.ts) and every oracles/Vnnn.ts are compiled with esbuild into
 * dist/<build>/ with code splitting (one instance of each module; lazy imports stay lazy);
 * packages stay bare imports, found from this package's node_modules. import.meta keeps naming the
 * source file, relative to the built file (the build is relocatable: `npm pack` ships it), so every
 * path the harness finds next to its sources (oracles/, holder-entry.ts, docker/ assets) is the
 * same compiled or not; the registry imports an oracle's compiled twin (LOCK_ORACLES_BUILD,
 * src/registry.ts). dist/build.json names the current build, its inputs with their mtimes and
 * hashes and the oracle files it holds; dist/index.js and dist/vitest.js re-export the current
 * build's entries (package.json `exports`); builds unused for a day are removed.
 */
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inputTimes, keepSourceLocation, writeAtomically, type SourceLocation } from './compile-module.ts';

export interface DistStamp {
  /** The compiled CLI to import, relative to the package root. */
  cli: string;
  /**
   * Every source the build read, relative to the package root: its mtime and sha256. The launcher
   * compares mtimes first and, where one differs (an installed package: npm does not keep mtimes),
   * the content.
   */
  inputs: Record<string, { mtimeMs: number; sha256: string }>;
  /** The oracle files the build holds: adding oracles/V320.ts makes the build stale. */
  oracles: string[];
}

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = join(ROOT, 'dist');
const UNUSED_FOR_MS = 24 * 60 * 60 * 1000;
/** The public entries (package.json `exports`): dist/<name>.js re-exports the current build's src/<name>.js. */
export const PUBLIC_ENTRIES = ['index', 'vitest'];

/**
 * Every output file lies two levels below the build dir (src/cli.js, oracles/V310.js,
 * chunks/x.js), so the package root is three levels above it, wherever the package is installed:
 * the built files name their sources relative to themselves, never by this machine's paths.
 */
const RELOCATABLE: SourceLocation = {
  url: (path) => `${fromOutput(path)}.href`,
  filename: (path) => `decodeURIComponent(${fromOutput(path)}.pathname)`,
  dirname: (path) => `decodeURIComponent(${fromOutput(dirname(path), '/')}.pathname).slice(0, -1)`,
};

function fromOutput(path: string, suffix = ''): string {
  return `new URL(${JSON.stringify(`../../../${relative(ROOT, path).split(sep).join('/')}${suffix}`)}, import.meta.url)`;
}

export function oracleFiles(root = ROOT): string[] {
  return readdirSync(join(root, 'oracles'))
    .filter((f) => /^V\d+\.ts$/.test(f))
    .sort();
}

export async function buildDist(): Promise<DistStamp> {
  const oracles = oracleFiles();
  const outdir = join(DIST, `build-${Date.now().toString(36)}-${process.pid}`);
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['src/cli.ts', ...PUBLIC_ENTRIES.map((name) => `src/${name}.ts`), ...oracles.map((f) => `oracles/${f}`)],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outdir,
    outbase: ROOT,
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'inline',
    sourceRoot: 'file:///',
    define: { LOCK_ORACLES_BUILD: JSON.stringify(basename(outdir)) },
    metafile: true,
    write: false,
    logLevel: 'silent',
    plugins: [{ name: 'keep-source-location', setup: (b) => keepSourceLocation(b, RELOCATABLE) }],
  });
  for (const file of result.outputFiles) {
    const parts = relative(outdir, file.path).split(sep);
    if (parts.length !== 2) throw new Error(`build-dist: ${relative(outdir, file.path)} is not two levels below the build dir; RELOCATABLE's ../../../ would miss the package root`);
  }
  writeAtomically(outdir, result.outputFiles, outdir);
  const inputs = inputTimes(result.metafile.inputs, ROOT);
  inputs.set(fileURLToPath(import.meta.url), statSync(fileURLToPath(import.meta.url)).mtimeMs);
  const stamp: DistStamp = {
    cli: relative(ROOT, join(outdir, 'src', 'cli.js')),
    inputs: Object.fromEntries([...inputs].map(([path, mtimeMs]) => [relative(ROOT, path), { mtimeMs, sha256: sha256(path) }])),
    oracles,
  };
  for (const name of PUBLIC_ENTRIES) replaceFile(join(DIST, `${name}.js`), `export * from './${basename(outdir)}/src/${name}.js';\n`);
  replaceFile(join(DIST, 'build.json'), JSON.stringify(stamp));
  // `npm pack` ships the current build only (a .npmignore below a `files` entry applies).
  replaceFile(join(DIST, '.npmignore'), `/build-*\n!/${basename(outdir)}/\n/builder-*\n`);
  prune(outdir);
  return stamp;
}

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function replaceFile(path: string, contents: string): void {
  const staging = `${path}.${process.pid}`;
  writeFileSync(staging, contents);
  renameSync(staging, path);
}

function prune(current: string): void {
  mkdirSync(DIST, { recursive: true });
  for (const name of readdirSync(DIST)) {
    const path = join(DIST, name);
    if (!name.startsWith('build-') || path === current) continue;
    if (Date.now() - statSync(path).mtimeMs > UNUSED_FOR_MS) rmSync(path, { recursive: true, force: true });
  }
}
