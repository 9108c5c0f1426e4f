/**
 * Holders start with plain `node`, no TypeScript loader: a module and the TypeScript files it
 * imports are compiled with esbuild into plain ES modules, once per harness process and content.
 * Packages are resolved at build time from the importing file's own directory, so a target runs
 * with its own node_modules and versions. The CommonJS packages the target loads with itself come
 * from one bundle (src/build/package-bundle.ts: one require instead of hundreds of files); whatever that
 * leaves to node stays node's: an ES module is imported by its absolute file URL; a CommonJS file is
 * loaded with node's own `require` (createRequire), with the namespace node's ESM loader would give
 * it (default = module.exports, plus its properties): the same module instance, without the ESM
 * loader's CommonJS export scan, which cost ~90 ms of CPU per holder for ioredis alone on the
 * project's machine (docs/benchmarks.md). Dynamic imports stay lazy (code splitting). Outputs live
 * in a content-addressed cache dir whose entries unused for a day are removed.
 */
import type { Metafile, Plugin, PluginBuild } from 'esbuild';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isCommonJs } from './module-kind.ts';
import { bundlePackages, bundlingPackages, packageRoot } from './package-bundle.ts';
import { BUNDLE_BODY, BUNDLE_FILE, BUNDLE_LOADER } from './bundle-loader.ts';

/** Where compiled modules and what a build learned about its inputs live; entries unused for a day are pruned. */
export const CACHE = join(tmpdir(), 'lock-oracles-cache', 'modules');
/**
 * Spelled so that this file's own text does not contain it: this file is bundled by the same
 * plugin (src/build/build-dist.ts), which would otherwise rewrite these very search strings (and the
 * banner's own import meta URL).
 */
const IMPORT_META = ['import', 'meta'].join('.');

const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * This package's public entries by name, as its own files import them (docs/examples, test
 * fixtures): the sources, since dist/ is built only by the launcher and `npm pack`. A target in
 * a user's project resolves 'lock-oracles' to the installed package's dist/ like any package.
 */
const SELF_IMPORTS: Record<string, string> = { 'lock-oracles': 'src/index.ts', 'lock-oracles/vitest': 'src/vitest.ts' };
const UNUSED_FOR_MS = 24 * 60 * 60 * 1000;
const TYPESCRIPT = /\.[mc]?tsx?$/;

interface Compiled {
  file: string;
  inputs: Map<string, number>;
  /** A package bundle's: the package files it serves. */
  served?: string[];
}
const compiled = new Map<string, Promise<Compiled>>();

/**
 * The compiled ES module for `entry` (an absolute path), rebuilt when any of its inputs changed.
 * What was compiled is remembered in this process and, for the next process, in a small manifest
 * beside the outputs: a fresh CLI whose target did not change starts no esbuild at all.
 */
export async function compileModule(entry: string): Promise<string> {
  return (await cachedBuild(`module ${entry}`, () => compile(entry))).file;
}

/**
 * The compiled ES module for `entry` that an earlier process left in the cache, when none of its
 * inputs changed since; undefined otherwise. Never builds: for the launcher, which starts a holder
 * loading the target before the CLI, and with it esbuild, is loaded (src/holder/holder-shell.ts).
 */
export function compiledEarlier(entry: string): string | undefined {
  const known = readManifest(`module ${entry}`);
  return known && unchanged(known.inputs) && existsSync(known.file) ? known.file : undefined;
}

/** What was built for `key`, by this process or an earlier one (a manifest), or a new build when an input changed. */
async function cachedBuild(key: string, build: () => Promise<Compiled>): Promise<Compiled> {
  const pending = compiled.get(key);
  const known = pending ? await pending.catch(() => undefined) : readManifest(key);
  if (known && unchanged(known.inputs) && existsSync(known.file)) {
    touch(dirname(known.file));
    return known;
  }
  const next = build().then((done) => {
    writeManifest(key, done);
    return done;
  });
  compiled.set(key, next);
  next.catch(() => compiled.delete(key));
  return next;
}

/** A change to how modules are compiled (this file and the three it uses) invalidates what earlier versions compiled. */
const COMPILER = ['./compile-module.ts', './package-bundle.ts', './module-kind.ts', './bundle-loader.ts']
  .reduce(
    (hash, file) => hash.update(readFileSync(fileURLToPath(new URL(file, import.meta.url)))),
    createHash('sha256'),
  )
  .digest('hex');

function manifestPath(key: string): string {
  const packages = bundlingPackages() ? 'bundled' : 'node';
  return join(
    CACHE,
    `${createHash('sha256').update(COMPILER).update(packages).update(key).digest('hex').slice(0, 24)}.json`,
  );
}

function readManifest(key: string): Compiled | undefined {
  try {
    const { file, inputs, served } = JSON.parse(readFileSync(manifestPath(key), 'utf8')) as {
      file: string;
      inputs: Array<[string, number]>;
      served?: string[];
    };
    return { file, inputs: new Map(inputs), ...(served ? { served } : {}) };
  } catch {
    return undefined;
  }
}

function writeManifest(key: string, done: Compiled): void {
  const path = manifestPath(key);
  const staging = `${path}.${process.pid}`;
  writeFileSync(
    staging,
    JSON.stringify({ file: done.file, inputs: [...done.inputs], ...(done.served ? { served: done.served } : {}) }),
  );
  renameSync(staging, path);
}

async function compile(entry: string): Promise<Compiled> {
  pruneOnce();
  const packages: PackageImport[] = [];
  let result = await buildTarget(entry, leaveToNode({ packages }));
  let packageInputs = new Map<string, number>();
  if (packages.length && bundlingPackages()) {
    const eager = eagerPackages(entry, packages, result.metafile);
    let bundle = await packageBundle(eager);
    // A lazy import of a package the bundle holds anyway is served from it too: one instance.
    const held = new Set([...bundle.inputs.keys()].map((file) => packageRoot(file)));
    const alsoHeld = packages
      .filter((p) => !eager.includes(p.file) && held.has(packageRoot(p.file)))
      .map((p) => p.file);
    if (alsoHeld.length) bundle = await packageBundle([...new Set([...eager, ...alsoHeld])].sort());
    if (bundle.served?.length) {
      result = await buildTarget(
        entry,
        leaveToNode({ packages: [], bundle: { file: bundle.file, served: new Set(bundle.served) } }),
      );
      packageInputs = bundle.inputs;
    }
  }
  const dir = writeOutputs(result.outputFiles);
  // The target's own output: a chunk split off at a dynamic import (the public API's lazy parts) names its entry point too.
  const output = Object.entries(result.metafile.outputs).find(
    ([, o]) => o.entryPoint !== undefined && resolve(o.entryPoint) === resolve(entry),
  )?.[0];
  if (output === undefined) throw new Error(`esbuild wrote no output for ${entry} itself (only chunks split off it)`);
  return {
    file: join(dir, basename(output)),
    inputs: new Map([...inputTimes(result.metafile.inputs), ...packageInputs]),
  };
}

/** A package file the target's code imports: which file imports it, and how. */
interface PackageImport {
  file: string;
  importer: string;
  kind: string;
}

/**
 * The package files loaded as soon as the target is (imported statically from a file imported
 * statically from the target), sorted: only those are bundled, since a holder parses the whole
 * bundle as it loads. A package behind a dynamic import (the harness's container runtime in
 * `lock-oracles`, say) stays node's and lazy.
 */
function eagerPackages(entry: string, packages: PackageImport[], metafile: Metafile): string[] {
  const eagerFiles = new Set<string>();
  const queue = [resolve(entry)];
  while (queue.length) {
    const file = queue.pop()!;
    if (eagerFiles.has(file)) continue;
    eagerFiles.add(file);
    const input = metafile.inputs[relative(process.cwd(), file)];
    for (const imported of input?.imports ?? []) {
      if (imported.kind !== 'dynamic-import' && !imported.external && TYPESCRIPT.test(imported.path))
        queue.push(resolve(imported.path));
    }
  }
  return [
    ...new Set(packages.filter((p) => p.kind !== 'dynamic-import' && eagerFiles.has(p.importer)).map((p) => p.file)),
  ].sort();
}

/** The package bundle for these package files, shared by every target that loads the same ones (src/build/package-bundle.ts). */
function packageBundle(entries: string[]): Promise<Compiled> {
  return cachedBuild(`packages ${entries.join('\n')}`, async () => {
    const bundle = await bundlePackages({ entries, exclude: [PACKAGE_ROOT.replace(/\/$/, '')] });
    // None bundled is remembered too: a file serving nothing, rebuilt when one of the entries changes.
    const contents = bundle?.contents ?? new TextEncoder().encode('module.exports = {};\n');
    const dir = writeOutputs([
      { path: `/${BUNDLE_BODY}`, contents },
      { path: `/${BUNDLE_FILE}`, contents: new TextEncoder().encode(BUNDLE_LOADER) },
    ]);
    const inputs = bundle?.inputs ?? entries;
    return {
      file: join(dir, BUNDLE_FILE),
      inputs: new Map(inputs.map((path) => [path, mtime(path)])),
      served: [...(bundle?.served ?? [])],
    };
  });
}

/** Writes build outputs into the cache dir named by their content (kept if already there); returns that dir. */
function writeOutputs(files: ReadonlyArray<{ path: string; contents: Uint8Array }>): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(file.path).update(file.contents);
  const dir = join(CACHE, hash.digest('hex').slice(0, 24));
  if (existsSync(dir)) touch(dir);
  else writeAtomically(dir, files);
  return dir;
}

async function buildTarget(entry: string, plugin: Plugin) {
  const { build } = await import('esbuild');
  return build({
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node}`,
    // Node's own resolution: no "module" field or condition, which node ignores.
    mainFields: ['main'],
    conditions: [],
    outdir: '/',
    entryNames: '[name]',
    outExtension: { '.js': '.mjs' },
    // Stack traces name the original files (node --enable-source-maps): sources are relative to outdir /.
    sourcemap: 'inline',
    sourceRoot: 'file:///',
    metafile: true,
    write: false,
    logLevel: 'silent',
    plugins: [plugin],
    banner: { js: REQUIRE_BANNER },
  });
}

interface LeaveToNode {
  /** Filled with the package files the target loads (what src/build/package-bundle.ts may bundle). */
  packages: PackageImport[];
  /** The bundle serving some of them. */
  bundle?: { file: string; served: Set<string> };
}

/**
 * TypeScript is bundled; whatever node can load itself is imported from where it is, or, for a
 * package file the package bundle serves, taken from that bundle (one require for all of them).
 */
function leaveToNode({ packages, bundle }: LeaveToNode): Plugin {
  return {
    name: 'leave-to-node',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === 'entry-point' || args.pluginData?.resolving) return undefined;
        if (isBuiltin(args.path)) return { path: args.path, external: true };
        const self = SELF_IMPORTS[args.path];
        if (self && !relative(PACKAGE_ROOT, args.importer).startsWith('..')) return { path: join(PACKAGE_ROOT, self) };
        const found = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { resolving: true },
        });
        if (found.errors.length) return { errors: found.errors };
        if (found.external) return { path: found.path, external: true };
        if (TYPESCRIPT.test(found.path)) return { path: found.path };
        if (packageRoot(found.path)) packages.push({ file: found.path, importer: args.importer, kind: args.kind });
        const asRequired = args.kind === 'require-call';
        if (bundle?.served.has(found.path))
          return { path: found.path, namespace: BUNDLED, pluginData: { bundle: bundle.file, asRequired } };
        if (isCommonJs(found.path)) return { path: found.path, namespace: REQUIRED, pluginData: { asRequired } };
        return { path: pathToFileURL(found.path).href, external: true };
      });
      loadWithNodeRequire(build);
      build.onLoad({ filter: /.*/, namespace: BUNDLED }, (args) => {
        const { bundle: file, asRequired } = args.pluginData as { bundle: string; asRequired: boolean };
        return {
          contents: moduleExports(`${REQUIRE}(${JSON.stringify(file)})[${JSON.stringify(args.path)}]()`, asRequired),
          loader: 'js',
        };
      });
      keepSourceLocation(build);
    },
  };
}

const BUNDLED = 'package-bundle';

/** Resolve a module to `{ path: <what node's require is given>, namespace: REQUIRED }` and it is loaded with node's require (REQUIRE_BANNER). */
export const REQUIRED = 'node-require';

export function loadWithNodeRequire(build: PluginBuild): void {
  build.onLoad({ filter: /.*/, namespace: REQUIRED }, (args) => {
    const asRequired = (args.pluginData as { asRequired?: boolean } | undefined)?.asRequired === true;
    return { contents: moduleExports(`${REQUIRE}(${JSON.stringify(args.path)})`, asRequired), loader: 'js' };
  });
}

/** A stub module exporting what `loaded` (an expression) gives: module.exports itself to a require() call, to an import the namespace node's ESM loader would give. */
function moduleExports(loaded: string, asRequired: boolean): string {
  return `module.exports = ${asRequired ? loaded : `${NODE_NAMESPACE}(${loaded})`};`;
}

const REQUIRE = '__lockOraclesRequire';
const NODE_NAMESPACE = '__lockOraclesNodeNamespace';
/** In every output chunk: node's require, and the namespace node's ESM loader gives a CommonJS module. */
export const REQUIRE_BANNER = [
  `import { createRequire as __lockOraclesCreateRequire } from 'node:module';`,
  `const ${REQUIRE} = __lockOraclesCreateRequire(${IMPORT_META}.url);`,
  `const ${NODE_NAMESPACE} = (m) => Object.assign(Object.create(null), m !== null && (typeof m === 'object' || typeof m === 'function') ? m : {}, { default: m, __esModule: true });`,
].join('\n');

/** How a bundled file's `import.meta.url` / `.filename` / `.dirname` are written for the source file at `path`. */
export interface SourceLocation {
  url(path: string): string;
  filename(path: string): string;
  dirname(path: string): string;
}

/** The source's absolute location, fixed at build time (outputs used on this machine only). */
const ABSOLUTE: SourceLocation = {
  url: (path) => JSON.stringify(pathToFileURL(path).href),
  filename: (path) => JSON.stringify(path),
  dirname: (path) => JSON.stringify(dirname(path)),
};

/** A bundled TypeScript file still sees its own location in import.meta (e.g. new URL('./x.json', import.meta.url)). */
export function keepSourceLocation(build: PluginBuild, location: SourceLocation = ABSOLUTE): void {
  build.onLoad({ filter: TYPESCRIPT }, (args) => {
    const source = readFileSync(args.path, 'utf8');
    const contents = source.includes(IMPORT_META)
      ? source
          .replaceAll(`${IMPORT_META}.url`, location.url(args.path))
          .replaceAll(`${IMPORT_META}.filename`, location.filename(args.path))
          .replaceAll(`${IMPORT_META}.dirname`, location.dirname(args.path))
      : source;
    return { contents, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
  });
}

/** Writes a build's output files under `dir` (paths relative to the build's outdir `outdir`), all or nothing. */
export function writeAtomically(
  dir: string,
  files: ReadonlyArray<{ path: string; contents: Uint8Array }>,
  outdir = '/',
): void {
  const staging = `${dir}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  for (const file of files) {
    const path = join(staging, relative(outdir, file.path));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.contents);
  }
  try {
    renameSync(staging, dir);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // another process wrote the same content first
  }
}

/** The mtime of each input of a build (metafile paths are relative to `workingDir`). */
export function inputTimes(metafileInputs: object, workingDir = process.cwd()): Map<string, number> {
  return new Map(
    Object.keys(metafileInputs).map((path) => [resolve(workingDir, path), mtime(resolve(workingDir, path))]),
  );
}

/** Whether every input still has the modification time it had when it was built from. */
export function unchanged(inputs: Map<string, number>): boolean {
  for (const [path, at] of inputs) if (mtime(path) !== at) return false;
  return true;
}

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

function touch(path: string): void {
  const now = new Date();
  try {
    utimesSync(path, now, now);
  } catch {
    /* pruned meanwhile: the next compile writes it again */
  }
}

let pruned = false;
function pruneOnce(): void {
  if (pruned) return;
  pruned = true;
  mkdirSync(CACHE, { recursive: true });
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    if (Date.now() - mtime(path) > UNUSED_FOR_MS) rmSync(path, { recursive: true, force: true });
  }
}
