#!/usr/bin/env node
/**
 * lock-oracles with plain node, no TypeScript loader: runs the compiled CLI in dist/ (see
 * src/build-dist.ts), rebuilding it first when any source it was built from changed or an oracle
 * file was added or removed. The check is one small JSON read and a stat per source file.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** The compiled CLI of the current build, or undefined when it must be rebuilt. */
function currentBuild() {
  try {
    const stamp = JSON.parse(readFileSync(join(ROOT, 'dist', 'build.json'), 'utf8'));
    for (const [path, mtime] of Object.entries(stamp.inputs)) if (statSync(join(ROOT, path)).mtimeMs !== mtime) return undefined;
    const oracles = JSON.stringify(stamp.oracles);
    return oracles === JSON.stringify(oracleFiles()) ? stamp.cli : undefined;
  } catch {
    return undefined;
  }
}

// The same rule as src/build-dist.ts's oracleFiles(), which cannot be imported before a build.
function oracleFiles() {
  return readdirSync(join(ROOT, 'oracles'))
    .filter((f) => /^V\d+\.ts$/.test(f))
    .sort();
}

/** Builds dist/: the builder is TypeScript too, so it is bundled for this one call first. */
async function rebuild() {
  const { build } = await import('esbuild');
  const source = join(ROOT, 'src', 'build-dist.ts');
  const builder = join(ROOT, 'dist', `builder-${process.pid}.mjs`);
  await build({
    entryPoints: [source],
    outfile: builder,
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(source).href) },
    logLevel: 'error',
  });
  try {
    const { buildDist } = await import(pathToFileURL(builder).href);
    return (await buildDist()).cli;
  } finally {
    rmSync(builder, { force: true });
  }
}

const cli = currentBuild() ?? (await rebuild());
await import(pathToFileURL(cli).href);
