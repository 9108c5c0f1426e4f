#!/usr/bin/env node
/**
 * lock-oracles with plain node, no TypeScript loader: runs the compiled CLI in dist/ (see
 * src/build/build-dist.ts), rebuilding it first when any source it was built from changed or an oracle
 * file was added or removed. In the repository the check is one small JSON read and a stat per
 * source file; a source whose mtime differs is compared by content. An installed package (under a
 * node_modules folder, src/core/invocation.ts INSTALLED) runs the dist/ its tarball was packed with
 * as it is, unchecked: npm does not keep mtimes, so the check would hash every source on every start,
 * and its directory may be read-only anyway (a changed source there is rebuilt by
 * `node node_modules/lock-oracles/bin/lock-oracles.js --build-only`).
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const INSTALLED = ROOT.split(sep).includes('node_modules');

/** The current build's stamp (dist/build.json: src/build/build-dist.ts DistStamp), or undefined when it must be rebuilt. */
async function currentBuild() {
  try {
    const stamp = JSON.parse(readFileSync(join(ROOT, 'dist', 'build.json'), 'utf8'));
    if (INSTALLED) return stamp;
    for (const [path, { mtimeMs, sha256 }] of Object.entries(stamp.inputs)) {
      const file = join(ROOT, path);
      if (statSync(file).mtimeMs === mtimeMs) continue;
      const { createHash } = await import('node:crypto');
      if (createHash('sha256').update(readFileSync(file)).digest('hex') !== sha256) return undefined;
    }
    const oracles = JSON.stringify(stamp.oracles);
    return oracles === JSON.stringify(oracleFiles()) ? stamp : undefined;
  } catch {
    return undefined;
  }
}

// The same rule as src/core/invocation.ts's oracleFiles(), which cannot be imported before a build.
function oracleFiles() {
  const dir = join(ROOT, 'oracles');
  return readdirSync(dir)
    .flatMap((name) => {
      if (/^V\d+\.ts$/.test(name)) return [name];
      return /^V\d+$/.test(name) && existsSync(join(dir, name, 'index.ts')) ? [`${name}/index.ts`] : [];
    })
    .sort();
}

/** Builds dist/: the builder is TypeScript too, so it is bundled for this one call first. */
async function rebuild() {
  const { build } = await import('esbuild');
  const source = join(ROOT, 'src', 'build', 'build-dist.ts');
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
    return await buildDist();
  } finally {
    rmSync(builder, { force: true });
  }
}

// Ctrl-C before the CLI has installed its own handlers (src/process/cleanup.ts, as it starts) ends the
// process as interrupted (nothing has started yet) instead of killing it by the signal, which
// `npm run` may report as exit code 1. Removed once the CLI module has run its first line.
const early = [
  ['SIGINT', () => process.exit(130)],
  ['SIGTERM', () => process.exit(143)],
];
for (const [signal, exit] of early) process.on(signal, exit);

/**
 * A run of one oracle (`<ID> --target …`): a holder process starts booting node now, beside the
 * CLI's own loading, and becomes the first run's first holder (bin/holder-shell.js,
 * src/holder/holder-shell.ts), started as every holder is (src/holder/holder-command.ts, built).
 * Where an earlier run left the holder entry and the target compiled and current in the cache, the
 * shell loads both meanwhile too; the run takes it only if it compiled the same two modules.
 */
async function startHolderShell(build, target) {
  if (!build.holderCommand) return;
  const { spawnHolderProcess, modulesAhead } = await import(pathToFileURL(join(ROOT, build.holderCommand)).href);
  const ahead = modulesAhead(resolve(target));
  const shellScript = fileURLToPath(new URL('./holder-shell.js', import.meta.url));
  const shell = spawnHolderProcess([shellScript, ...(ahead ? [ahead.entry, ahead.target] : [])]);
  shell.on('error', () => undefined); // never started: the holder is spawned as usual
  // Unused, it must not keep the CLI alive, and it ends with it.
  shell.unref();
  for (const stream of [shell.stderr, shell.stdio[3], shell.stdio[4]]) {
    stream?.on('error', () => undefined);
    stream?.unref?.();
  }
  const slot = Symbol.for('lock-oracles.holder-shell');
  globalThis[slot] = shell;
  globalThis[Symbol.for('lock-oracles.holder-shell-ahead')] = ahead;
  process.once('exit', () => {
    if (globalThis[slot] === shell) shell.kill('SIGKILL');
  });
}
const [first, ...rest] = process.argv.slice(2);
// A target in another language (a .py file, or --lang) has holders of its own kind: no node shell for it.
const target = rest[rest.indexOf('--target') + 1] ?? '';
const nodeTarget = !target.endsWith('.py') && !rest.includes('--lang');
const runsOneOracle =
  /^V\d+$/i.test(first ?? '') &&
  rest.includes('--target') &&
  nodeTarget &&
  !rest.includes('--help') &&
  !rest.includes('-h');

/**
 * rebuild(), where a Ctrl-C that lands during it still ends the process as interrupted: the signal
 * reaches esbuild's service process too (the same process group), and that process's death can
 * reach this one as a rejected build ("The service was stopped: write EPIPE") before the signal's own
 * handler above has run. A failed build waits a moment for such a signal before it is reported.
 */
async function rebuildUnlessInterrupted() {
  try {
    return await rebuild();
  } catch (error) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    throw error;
  }
}

// `--build-only` (npm's prepack): build dist/ now and start nothing.
if (process.argv[2] === '--build-only') await rebuildUnlessInterrupted();
else {
  const build = (await currentBuild()) ?? (await rebuildUnlessInterrupted());
  if (runsOneOracle) await startHolderShell(build, target);
  await import(pathToFileURL(join(ROOT, build.cli)).href);
}
for (const [signal, exit] of early) process.off(signal, exit);
