/**
 * The CLI as plain JavaScript, so `lock-oracles` starts with plain node and no loader
 * (bin/lock-oracles.js calls this when a source changed). src/cli/main.ts, src/holder/holder-command.ts, the public entries
 * (src/index.ts, src/vitest.ts) and every oracles/Vnnn.ts are compiled with esbuild into
 * dist/<build>/ with code splitting (one instance of each module; lazy imports stay lazy);
 * packages stay bare imports, found from this package's node_modules. import.meta keeps naming the
 * source file, relative to the built file (the build is relocatable: `npm pack` ships it), so every
 * path the harness finds next to its sources (oracles/, holder-entry.ts, docker/ assets) is the
 * same compiled or not; the registry imports an oracle's compiled twin (LOCK_ORACLES_BUILD,
 * src/run/registry.ts). dist/build.json names the current build, its inputs with their mtimes and
 * hashes and the oracle files it holds; dist/<build>/listing.json is what `list` prints (made from
 * the compiled oracles, src/cli/listing.ts); dist/index.js and dist/vitest.js re-export the current
 * build's entries (package.json `exports`); builds unused for a day are removed.
 */
import { build, type Plugin } from 'esbuild';
import { isBuiltin } from 'node:module';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isCommonJs } from './module-kind.ts';
import { oracleFiles } from '../core/invocation.ts';
import {
  inputTimes,
  keepSourceLocation,
  loadWithNodeRequire,
  REQUIRE_BANNER,
  REQUIRED,
  writeAtomically,
  type SourceLocation,
} from './compile-module.ts';

export interface DistStamp {
  /** The compiled CLI to import, relative to the package root. */
  cli: string;
  /** The compiled src/holder/holder-command.ts, which the launcher imports before the CLI (bin/holder-shell.js). */
  holderCommand: string;
  /**
   * Every source the build read, relative to the package root: its mtime and sha256. The launcher
   * compares mtimes first and, where one differs (an installed package: npm does not keep mtimes),
   * the content.
   */
  inputs: Record<string, { mtimeMs: number; sha256: string }>;
  /** The oracle files the build holds: adding oracles/V320.ts makes the build stale. */
  oracles: string[];
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
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

export async function buildDist(): Promise<DistStamp> {
  const oracles = oracleFiles(ROOT);
  const outdir = join(DIST, `build-${Date.now().toString(36)}-${process.pid}`);
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [
      { in: 'src/cli/main.ts', out: 'src/cli' },
      // Two levels below the build dir, as every output must be.
      { in: 'src/holder/holder-command.ts', out: 'src/holder-command' },
      { in: 'src/cli/listing.ts', out: 'src/listing' },
      ...PUBLIC_ENTRIES.map((name) => `src/${name}.ts`),
      ...oracles.map((f) => ({ in: `oracles/${f}`, out: `oracles/${f.replace(/(\/index)?\.ts$/, '')}` })),
    ],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir,
    outbase: ROOT,
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
    sourceRoot: 'file:///',
    define: { LOCK_ORACLES_BUILD: JSON.stringify(basename(outdir)) },
    metafile: true,
    write: false,
    logLevel: 'silent',
    plugins: [packagesAtRunTime, { name: 'keep-source-location', setup: (b) => keepSourceLocation(b, RELOCATABLE) }],
    // Node's require, for the CommonJS packages and for the CommonJS files inside a bundled one.
    banner: { js: `${REQUIRE_BANNER}\nconst require = __lockOraclesRequire;` },
  });
  for (const file of result.outputFiles) {
    const parts = relative(outdir, file.path).split(sep);
    if (parts.length !== 2)
      throw new Error(
        `build-dist: ${relative(outdir, file.path)} is not two levels below the build dir; RELOCATABLE's ../../../ would miss the package root`,
      );
  }
  writeAtomically(outdir, result.outputFiles, outdir);
  await writeListing(outdir);
  // Packages are not sources (an installed package's dependencies lie elsewhere), nor is what node's require loads.
  const sources = Object.keys(result.metafile.inputs).filter(
    (path) => !path.startsWith(`${REQUIRED}:`) && !path.split('/').includes('node_modules'),
  );
  const inputs = inputTimes(Object.fromEntries(sources.map((path) => [path, true])), ROOT);
  inputs.set(fileURLToPath(import.meta.url), statSync(fileURLToPath(import.meta.url)).mtimeMs);
  const stamp: DistStamp = {
    cli: relative(ROOT, join(outdir, 'src', 'cli.js')),
    holderCommand: relative(ROOT, join(outdir, 'src', 'holder-command.js')),
    inputs: Object.fromEntries(
      [...inputs].map(([path, mtimeMs]) => [relative(ROOT, path), { mtimeMs, sha256: sha256(path) }]),
    ),
    oracles,
  };
  for (const name of PUBLIC_ENTRIES)
    replaceFile(join(DIST, `${name}.js`), `export * from './${basename(outdir)}/src/${name}.js';\n`);
  replaceFile(join(DIST, 'build.json'), JSON.stringify(stamp));
  // `npm pack` ships the current build only (a .npmignore below a `files` entry applies).
  replaceFile(join(DIST, '.npmignore'), `/build-*\n!/${basename(outdir)}/\n/builder-*\n`);
  prune(outdir);
  return stamp;
}

/**
 * How the built CLI loads a package, by its bare name from the package root's node_modules (the
 * build stays relocatable), chosen for start-up time (docs/benchmarks.md): a CommonJS package
 * (ioredis, pg) with node's require, the ESM loader's export scan of it costing more than loading
 * it; a package of many small ES modules that the run path always needs (BUNDLED) is bundled, one
 * file instead of a hundred resolved and read one by one; any other, and any dynamic import, with
 * node's import.
 */
const BUNDLED = new Set(['execa']);

const packagesAtRunTime: Plugin = {
  name: 'packages-at-run-time',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.kind === 'entry-point' || args.pluginData?.resolving || isBuiltin(args.path)) return undefined;
      // Inside a bundled package everything is bundled (its own files and its dependencies).
      if (args.importer.split(sep).includes('node_modules')) return undefined;
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0]!;
      if (BUNDLED.has(name)) return undefined;
      const found = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { resolving: true },
      });
      if (found.errors.length || found.external || !found.path.split(sep).includes('node_modules')) return undefined;
      // A dynamic import keeps node's semantics (named exports of a CommonJS package) and stays lazy.
      const required = args.kind !== 'dynamic-import' && isCommonJs(found.path);
      return required ? { path: args.path, namespace: REQUIRED } : { path: args.path, external: true };
    });
    loadWithNodeRequire(build);
  },
};

/**
 * What `list` prints, made once here by the build's own compiled src/cli/listing.ts from the
 * compiled oracles: a `list` then reads one file instead of loading every oracle. The build dir is
 * not in use yet (build.json does not name it), so the file needs no atomic write. An oracle that
 * does not load (one being written) leaves the build without a listing rather than failing it:
 * every other command still works, and `list` loads the oracles itself and says which one broke.
 */
async function writeListing(outdir: string): Promise<void> {
  const listing = (await import(pathToFileURL(join(outdir, 'src', 'listing.js')).href)) as {
    writeListing: (buildDir: string) => Promise<void>;
  };
  await listing.writeListing(outdir).catch(() => undefined);
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
