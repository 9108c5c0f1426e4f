/**
 * The CLI as plain JavaScript, so `lock-oracles` starts with plain node and no loader
 * (bin/lock-oracles.js calls this when a source changed). src/cli.ts and every oracles/Vnnn.ts
 * are compiled with esbuild into dist/<build>/ with code splitting (one instance of each module;
 * lazy imports stay lazy); packages stay bare imports, found in this package's node_modules.
 * import.meta keeps naming the source file, so every path the harness finds next to its sources
 * (oracles/, holder-entry.ts, docker/ assets, reports/) is the same compiled or not; the registry
 * imports an oracle's compiled twin (LOCK_ORACLES_BUILD, src/registry.ts). dist/build.json names the
 * current build, its inputs with their mtimes and the oracle files it holds; builds unused for a
 * day are removed.
 */
import { build } from 'esbuild';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inputTimes, keepSourceLocation, writeAtomically } from './compile-module.ts';

export interface DistStamp {
  /** The compiled CLI to import. */
  cli: string;
  /** Every source the build read, relative to the package root, with its mtime. */
  inputs: Record<string, number>;
  /** The oracle files the build holds: adding oracles/V320.ts makes the build stale. */
  oracles: string[];
}

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = join(ROOT, 'dist');
const UNUSED_FOR_MS = 24 * 60 * 60 * 1000;

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
    entryPoints: ['src/cli.ts', ...oracles.map((f) => `oracles/${f}`)],
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
    define: { LOCK_ORACLES_BUILD: JSON.stringify(outdir) },
    metafile: true,
    write: false,
    logLevel: 'silent',
    plugins: [{ name: 'keep-source-location', setup: keepSourceLocation }],
  });
  writeAtomically(outdir, result.outputFiles, outdir);
  const inputs = inputTimes(result.metafile.inputs, ROOT);
  inputs.set(fileURLToPath(import.meta.url), statSync(fileURLToPath(import.meta.url)).mtimeMs);
  const stamp: DistStamp = {
    cli: join(outdir, 'src', 'cli.js'),
    inputs: Object.fromEntries([...inputs].map(([path, at]) => [relative(ROOT, path), at])),
    oracles,
  };
  const staging = join(DIST, `build.json.${process.pid}`);
  writeFileSync(staging, JSON.stringify(stamp));
  renameSync(staging, join(DIST, 'build.json'));
  prune(outdir);
  return stamp;
}

function prune(current: string): void {
  mkdirSync(DIST, { recursive: true });
  for (const name of readdirSync(DIST)) {
    const path = join(DIST, name);
    if (!name.startsWith('build-') || path === current) continue;
    if (Date.now() - statSync(path).mtimeMs > UNUSED_FOR_MS) rmSync(path, { recursive: true, force: true });
  }
}
