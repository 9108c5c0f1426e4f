/**
 * A target's packages (the files it loads from node_modules), bundled into one CommonJS file that a
 * holder loads with one `require`, instead of node resolving and reading hundreds of files: on the
 * project's machine a whole node-redis 5 holder process costs ~210 instead of ~410 ms of CPU
 * (docs/benchmarks.md). Still the target's own node_modules and versions, the same code:
 * CommonJS output wraps each module in its own function, keeps its own "use strict" (or not), and
 * runs it on its first `require`, as node does; a module that uses `__filename` / `__dirname` sees
 * its own. A package is left to node (loaded from where it is, as before) when esbuild cannot see
 * all of it: it is an ES module, it asks node's module system about itself (`require.resolve`,
 * `require.cache`, `module.parent` …), it loads a native addon, or esbuild warns about any of its
 * files (a `require` by a computed name, say); so is every package such a package loads, so that no
 * module is loaded twice. An optional dependency that is not installed (node-redis's OpenTelemetry
 * and xxhash, debug's supports-color) does not stop its package from being bundled: a `require` of
 * it becomes node's own require from the importing file's place, run when the code gets there; the
 * one file with an `import()` of it is left to node, with the files it loads. Either way node
 * resolves it where it would have, even once installed later. LOCK_ORACLES_PACKAGES=node leaves
 * every package to node.
 */
import type { Message, Metafile, Plugin } from 'esbuild';
import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { isCommonJs } from './module-kind.ts';

/** What to bundle. */
export interface BundleRequest {
  /** Absolute paths of the package files the target loads (its bare imports, resolved). */
  entries: string[];
  /** Package roots never bundled (this package itself: a target imports its public API from there). */
  exclude: string[];
}

export interface PackageBundle {
  /** The bundle's text: `module.exports = { [entry path]: () => module.exports of that file }`. */
  contents: Uint8Array;
  /** The entries the bundle serves; the others are left to node. */
  served: Set<string>;
  /** Every file the bundle was built from (for the compile cache's change check). */
  inputs: string[];
}

/** Whether packages are bundled at all (LOCK_ORACLES_PACKAGES=node: none is). */
export const bundlingPackages = (): boolean => process.env.LOCK_ORACLES_PACKAGES !== 'node';

/** The bundle for `request`, or undefined when no entry can be bundled (or esbuild could not build it). */
export async function bundlePackages(request: BundleRequest): Promise<PackageBundle | undefined> {
  /** Package roots, and single files, that node loads from where they are. */
  const leftToNode = new Set(request.exclude);
  for (let attempt = 0; attempt < 5; attempt++) {
    const served = request.entries.filter(
      (entry) => !leftToNode.has(packageRoot(entry) ?? '') && !leftToNode.has(entry),
    );
    if (!served.length) return undefined;
    const outcome = await buildOnce(served, leftToNode);
    const grown = [...outcome.unsafe].filter((root) => !leftToNode.has(root));
    const grownFiles = [...outcome.unsafeFiles].filter((file) => !leftToNode.has(file));
    if (!grown.length && !grownFiles.length && outcome.result) {
      return { contents: outcome.result.contents, served: new Set(served), inputs: outcome.result.inputs };
    }
    if (!grown.length && !grownFiles.length) return undefined; // failed for a reason no package explains
    for (const root of withWhatTheyLoad(grown, outcome.metafile)) leftToNode.add(root);
    for (const file of filesWithWhatTheyLoad(grownFiles, outcome.metafile)) leftToNode.add(file);
  }
  return undefined;
}

/** The package directory a file belongs to (…/node_modules/name or …/node_modules/@scope/name). */
export function packageRoot(path: string): string | undefined {
  const at = path.lastIndexOf('/node_modules/');
  if (at < 0) return undefined;
  const [first, second] = path.slice(at + '/node_modules/'.length).split('/');
  if (!first) return undefined;
  return path.slice(0, at + '/node_modules/'.length) + (first.startsWith('@') && second ? `${first}/${second}` : first);
}

/** Asks node's module system about itself, or reaches the caller's module object: esbuild's has none of that. */
const ASKS_NODE =
  /\brequire\s*\.\s*(resolve|cache|main|extensions)\b|\bmodule\s*\.\s*(parent|children|paths|require|filename|id|loaded)\b|\bprocess\s*\.\s*mainModule\b/;
const LOADABLE = /\.(c?js|json)$/;

interface Outcome {
  result?: { contents: Uint8Array; inputs: string[] };
  metafile?: Metafile;
  /** Packages esbuild cannot see all of: node's, with every package they load. */
  unsafe: Set<string>;
  /** Single files only node can load faithfully (an import() of a package not installed): node's, with every file they load. */
  unsafeFiles: Set<string>;
}

/** An optional dependency that is not installed, required from a bundled file: node's require from that file's place. */
const ANCHORED = 'required-from-importer';

async function buildOnce(entries: string[], leftToNode: Set<string>): Promise<Outcome> {
  const { build } = await import('esbuild');
  const unsafe = new Set<string>();
  const unsafeFiles = new Set<string>();
  const flag = (file: string | undefined) => {
    const root = file && packageRoot(resolve(file));
    if (root) unsafe.add(root);
  };
  const plugin: Plugin = {
    name: 'bundle-packages',
    setup(b) {
      // The entry: one lazy getter per file the target loads, in a namespace of its own.
      b.onResolve({ filter: /^entries$/ }, () => ({ path: 'entries', namespace: 'entries' }));
      b.onLoad({ filter: /.*/, namespace: 'entries' }, () => ({
        contents: `module.exports = {\n${entries.map((e) => `  ${JSON.stringify(e)}: () => require(${JSON.stringify(e)}),`).join('\n')}\n};\n`,
        loader: 'js',
        resolveDir: '/',
      }));
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.resolving) return undefined;
        if (isBuiltin(args.path)) return { path: args.path, external: true };
        const found = await b.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { resolving: true },
        });
        if (found.errors.length && args.kind === 'require-call') {
          // An optional dependency that is not installed (a require in a try): node's own require,
          // from the importer's own place, when the bundled code gets there.
          return {
            path: `${args.importer}?require=${args.path}`,
            namespace: ANCHORED,
            pluginData: { importer: args.importer, request: args.path },
          };
        }
        if (found.errors.length && args.kind === 'dynamic-import') {
          // Only node can import it from the importer's place: that one file is node's.
          if (args.importer) unsafeFiles.add(resolve(args.importer));
          return { path: args.path, external: true };
        }
        if (found.errors.length || found.external) {
          flag(args.importer);
          return { path: args.path, external: true };
        }
        const root = packageRoot(found.path);
        if (!root || leftToNode.has(root) || leftToNode.has(found.path)) {
          // Loaded by node from where it is; a bundled file that loads it is fine (same instance for all).
          return { path: found.path, external: true };
        }
        if (!LOADABLE.test(found.path)) {
          // An ES module (.mjs), a native addon or some other file only node knows how to load.
          flag(found.path);
          flag(args.importer);
          return { path: found.path, external: true };
        }
        return { path: found.path };
      });
      b.onLoad({ filter: /\.c?js$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!isCommonJs(args.path) || ASKS_NODE.test(source)) flag(args.path);
        return { contents: withOwnLocation(source, args.path), loader: 'js' };
      });
      b.onLoad({ filter: /.*/, namespace: ANCHORED }, (args) => {
        const { importer, request } = args.pluginData as { importer: string; request: string };
        return {
          contents: `module.exports = require('node:module').createRequire(${JSON.stringify(importer)})(${JSON.stringify(request)});`,
          loader: 'js',
        };
      });
    },
  };
  try {
    const result = await build({
      entryPoints: ['entries'],
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: `node${process.versions.node}`,
      mainFields: ['main'],
      conditions: [],
      // What node would run: no tree shaking on "sideEffects" hints, no dropped "pure" calls.
      ignoreAnnotations: true,
      treeShaking: false,
      write: false,
      outfile: '/packages.cjs',
      metafile: true,
      logLevel: 'silent',
      plugins: [plugin],
    });
    for (const warning of result.warnings) flag(warning.location?.file);
    const inputs = Object.keys(result.metafile.inputs)
      .filter((path) => !path.startsWith('entries:') && !path.startsWith(`${ANCHORED}:`))
      .map((path) => resolve(path));
    return {
      result: { contents: result.outputFiles[0]!.contents, inputs },
      metafile: result.metafile,
      unsafe,
      unsafeFiles,
    };
  } catch (error) {
    for (const message of (error as { errors?: Message[] }).errors ?? []) flag(message.location?.file);
    return { unsafe, unsafeFiles };
  }
}

/** `roots`, and every package their files load (directly or not), from the last build's graph. */
function withWhatTheyLoad(roots: string[], metafile: Metafile | undefined): Set<string> {
  const out = new Set(roots);
  if (!metafile) return out;
  const edges = new Map<string, Set<string>>();
  for (const [file, input] of Object.entries(metafile.inputs)) {
    const from = packageRoot(resolve(file));
    if (!from) continue;
    for (const imported of input.imports) {
      const to = packageRoot(resolve(imported.path));
      if (to && to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  const queue = [...roots];
  while (queue.length) {
    for (const next of edges.get(queue.pop()!) ?? []) {
      if (!out.has(next)) {
        out.add(next);
        queue.push(next);
      }
    }
  }
  return out;
}

/** `files`, and every file they load (directly or not), from the last build's graph. */
function filesWithWhatTheyLoad(files: string[], metafile: Metafile | undefined): Set<string> {
  const out = new Set(files);
  const queue = [...files];
  while (queue.length) {
    const input = metafile?.inputs[relative(process.cwd(), queue.pop()!)];
    for (const imported of input?.imports ?? []) {
      const next = resolve(imported.path);
      if (!imported.external && metafile!.inputs[imported.path] && !out.has(next)) {
        out.add(next);
        queue.push(next);
      }
    }
  }
  return out;
}

/**
 * The module's own `__filename` and `__dirname` (node passes them to each module; in a bundle they
 * would be the bundle's), declared after its directive prologue so a "use strict" stays first, on
 * the same line so line numbers do not move.
 */
function withOwnLocation(source: string, path: string): string {
  if (!/\b__(filename|dirname)\b/.test(source)) return source;
  const prologue = /^(#![^\n]*\n)?(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*(?:(['"])use strict\2\s*;?)?/.exec(source)![0];
  const own = `var __filename = ${JSON.stringify(path)}, __dirname = ${JSON.stringify(dirname(path))};`;
  return prologue + own + source.slice(prologue.length);
}
