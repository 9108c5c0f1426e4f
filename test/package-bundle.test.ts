/**
 * A target's packages are bundled into one CommonJS file for its holders (src/build/package-bundle.ts)
 * only where that changes nothing a module can see: its own __filename / __dirname, its own
 * strictness, one instance per module; a package that asks node's module system about itself, an
 * ES module, and everything such a package loads, stay node's. The packages here are written into a
 * scratch node_modules; the compiled target runs in a real node process.
 */
import { execa } from 'execa';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { bundlePackages, packageRoot } from '../src/build/package-bundle.ts';
import { compileModule } from '../src/build/compile-module.ts';
import { BUNDLE_BODY } from '../src/build/bundle-loader.ts';

const project = mkdtempSync(join(tmpdir(), 'lock-oracles-package-bundle-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));
const modules = join(project, 'node_modules');

function write(path: string, text: string): void {
  mkdirSync(dirname(join(project, path)), { recursive: true });
  writeFileSync(join(project, path), text);
}
const pkg = (name: string, extra: object = {}) =>
  write(`node_modules/${name}/package.json`, JSON.stringify({ name, version: '1.0.0', main: 'index.js', ...extra }));

pkg('counter');
write('node_modules/counter/index.js', 'let n = 0; module.exports = { next: () => ++n };\n');
pkg('where');
write(
  'node_modules/where/index.js',
  [
    '// a licence header, then the directive: it must stay the first statement',
    "'use strict';",
    'module.exports = { file: __filename, dir: __dirname, strict: (function () { return this; })() === undefined, counter: require("counter").next() };',
    '',
  ].join('\n'),
);
pkg('sloppy');
write('node_modules/sloppy/index.js', 'module.exports = { strict: (function () { return this; })() === undefined };\n');
pkg('asks-node');
write(
  'node_modules/asks-node/index.js',
  'module.exports = { own: require.resolve("./index.js"), counter: require("counter").next() };\n',
);
pkg('esm-only', { type: 'module' });
write('node_modules/esm-only/index.js', 'export const kind = typeof require;\n');
write(
  'target.ts',
  [
    "import where from 'where';",
    "import sloppy from 'sloppy';",
    "import asksNode from 'asks-node';",
    "import { kind } from 'esm-only';",
    "import counter from 'counter';",
    'export default { where, sloppy, asksNode, esmKind: kind, counterAfter: counter.next() };',
    '',
  ].join('\n'),
);

const entry = (name: string) => join(modules, name, 'index.js');

it('bundles the packages it can see all of; leaves to node one that asks node about itself, an ES module, and what they load', async () => {
  const bundle = await bundlePackages({
    entries: ['where', 'sloppy', 'asks-node', 'esm-only', 'counter'].map(entry),
    exclude: [],
  });
  expect([...bundle!.served].map((path) => packageRoot(path)!.slice(modules.length + 1)).sort()).toEqual([
    'sloppy',
    'where',
  ]);
  // `counter` is loaded by asks-node (left to node), so it is node's too: one instance for everyone.
  expect(bundle!.inputs.some((path) => path.includes('/counter/'))).toBe(false);
});

it('a compiled target sees each bundled module as node would show it', async () => {
  const compiled = await compileModule(join(project, 'target.ts'));
  expect(readFileSync(compiled, 'utf8')).toContain('packages.cjs');
  const { stdout } = await execa('node', [
    '--input-type=module',
    '-e',
    `console.log(JSON.stringify((await import(${JSON.stringify(compiled)})).default))`,
  ]);
  const seen = JSON.parse(stdout) as {
    where: { file: string; dir: string; strict: boolean; counter: number };
    sloppy: { strict: boolean };
    asksNode: { own: string; counter: number };
    esmKind: string;
    counterAfter: number;
  };
  expect(seen.where).toMatchObject({ file: entry('where'), dir: join(modules, 'where'), strict: true });
  expect(seen.sloppy.strict).toBe(false);
  expect(seen.asksNode.own).toBe(entry('asks-node'));
  expect(seen.esmKind).toBe('undefined');
  // One counter module for the bundled `where`, node's `asks-node` and the target itself.
  expect([seen.where.counter, seen.asksNode.counter, seen.counterAfter].sort()).toEqual([1, 2, 3]);
});

write(
  'lazy-target.ts',
  [
    "import where from 'where';",
    'export default async () => {',
    "  const counter = (await import('counter')).default;",
    "  const sloppy = (await import('sloppy')).default;",
    '  return { where, counterAfter: counter.next(), sloppy };',
    '};',
    '',
  ].join('\n'),
);

it('bundles only what loads with the target; a lazy import stays lazy, unless the bundle holds its package anyway', async () => {
  const compiled = await compileModule(join(project, 'lazy-target.ts'));
  const bundleFile = /__lockOraclesRequire\("([^"]+packages\.cjs)"\)/.exec(readFileSync(compiled, 'utf8'))?.[1];
  expect(bundleFile).toBeDefined();
  const bundle = readFileSync(join(dirname(bundleFile!), BUNDLE_BODY), 'utf8');
  // `where` loads with the target; `counter` is inside the bundle through it, so the lazy import is served from there.
  expect(bundle).toContain(JSON.stringify(entry('where')));
  expect(bundle).toContain(`${JSON.stringify(entry('counter'))}: () =>`);
  expect(bundle).not.toContain(entry('sloppy'));
  const { stdout } = await execa('node', [
    '--input-type=module',
    '-e',
    `console.log(JSON.stringify(await (await import(${JSON.stringify(compiled)})).default()))`,
  ]);
  const seen = JSON.parse(stdout) as { where: { counter: number }; counterAfter: number; sloppy: { strict: boolean } };
  expect([seen.where.counter, seen.counterAfter]).toEqual([1, 2]);
  expect(seen.sloppy.strict).toBe(false);
});

it('LOCK_ORACLES_PACKAGES=node leaves every package to node', async () => {
  write(
    'compile.mts',
    `import { compileModule } from ${JSON.stringify(join(process.cwd(), 'src/build/compile-module.ts'))};\nconsole.log(await compileModule(${JSON.stringify(join(project, 'target.ts'))}));\n`,
  );
  const { stdout } = await execa('npx', ['tsx', join(project, 'compile.mts')], {
    env: { LOCK_ORACLES_PACKAGES: 'node' },
  });
  expect(readFileSync(stdout.trim(), 'utf8')).not.toContain('packages.cjs');
});

pkg('optional');
write(
  'node_modules/optional/index.js',
  [
    'let plugin;',
    'try { plugin = require("optional-plugin"); } catch (error) { plugin = { missing: error.code }; }',
    'module.exports = { plugin, digest: require("./digest.js"), counter: require("counter").next() };',
    '',
  ].join('\n'),
);
write(
  'node_modules/optional/digest.js',
  'module.exports = { load: () => import("optional-esm").then((m) => m.kind, (error) => error.code), file: __filename, counter: require("counter").next() };\n',
);
write('optional-target.ts', "import optional from 'optional';\nexport default optional;\n");

it('an optional dependency that is not installed: node resolves it from the importer, when the code gets there', async () => {
  const bundle = await bundlePackages({ entries: [entry('optional')], exclude: [] });
  expect([...bundle!.served]).toEqual([entry('optional')]);
  // A require of it is bundled (node's require from optional/index.js runs it); the one file with an
  // import() of it is node's, and so is what that file loads (counter): one instance for both.
  expect(bundle!.inputs).toContain(entry('optional'));
  expect(bundle!.inputs.some((path) => path.endsWith('/digest.js') || path.includes('/counter/'))).toBe(false);

  const compiled = await compileModule(join(project, 'optional-target.ts'));
  const run = async () => {
    const { stdout } = await execa('node', [
      '--input-type=module',
      '-e',
      `const o = (await import(${JSON.stringify(compiled)})).default; console.log(JSON.stringify({ ...o, loaded: await o.digest.load() }))`,
    ]);
    return JSON.parse(stdout) as {
      plugin: { missing?: string; name?: string };
      digest: { file: string; counter: number };
      counter: number;
      loaded: string;
    };
  };
  const before = await run();
  expect(before.plugin).toEqual({ missing: 'MODULE_NOT_FOUND' });
  expect(before.loaded).toBe('ERR_MODULE_NOT_FOUND');
  expect(before.digest.file).toBe(join(modules, 'optional', 'digest.js'));
  expect([before.digest.counter, before.counter]).toEqual([1, 2]);

  // Installed afterwards, the compiled target (not rebuilt) finds both where node would.
  pkg('optional-plugin');
  write('node_modules/optional-plugin/index.js', 'module.exports = { name: "optional-plugin" };\n');
  pkg('optional-esm', { type: 'module' });
  write('node_modules/optional-esm/index.js', 'export const kind = "esm";\n');
  const after = await run();
  expect(after.plugin).toEqual({ name: 'optional-plugin' });
  expect(after.loaded).toBe('esm');
});

it("a holder compiles the bundle with V8's code cache, made by the first process that ran it; a cache V8 refuses is made again", async () => {
  write('cached-target.ts', "import where from 'where';\nexport default where;\n");
  const compiled = await compileModule(join(project, 'cached-target.ts'));
  const bundleDir = dirname(/__lockOraclesRequire\("([^"]+packages\.cjs)"\)/.exec(readFileSync(compiled, 'utf8'))![1]!);
  const cacheFile = join(bundleDir, `${BUNDLE_BODY}.${process.version}-${process.arch}.v8cache`);
  rmSync(cacheFile, { force: true });
  const run = async () =>
    JSON.parse(
      (
        await execa('node', [
          '--input-type=module',
          '-e',
          `console.log(JSON.stringify((await import(${JSON.stringify(compiled)})).default))`,
        ])
      ).stdout,
    ) as { file: string };
  const expected = { file: entry('where') };

  expect(await run()).toMatchObject(expected);
  const made = statSync(cacheFile);
  expect(made.size).toBeGreaterThan(0);
  // Used as it is: not written again.
  expect(await run()).toMatchObject(expected);
  expect(statSync(cacheFile).ino).toBe(made.ino);
  // Refused (not a code cache at all): the bundle still loads, and the cache is made afresh.
  writeFileSync(cacheFile, 'not a code cache');
  expect(await run()).toMatchObject(expected);
  expect(readFileSync(cacheFile, 'utf8')).not.toBe('not a code cache');
  expect(statSync(cacheFile).size).toBeGreaterThan(100);
});

it('an import() in bundled code still loads what node loads (here a package left to node)', async () => {
  pkg('dynamic');
  write(
    'node_modules/dynamic/index.js',
    'module.exports = { load: () => import("asks-node").then((m) => m.default.own) };\n',
  );
  write('dynamic-target.ts', "import dynamic from 'dynamic';\nexport default dynamic;\n");
  const compiled = await compileModule(join(project, 'dynamic-target.ts'));
  const bundleFile = /__lockOraclesRequire\("([^"]+packages\.cjs)"\)/.exec(readFileSync(compiled, 'utf8'))?.[1];
  expect(readFileSync(join(dirname(bundleFile!), BUNDLE_BODY), 'utf8')).toContain(JSON.stringify(entry('dynamic')));
  const { stdout } = await execa('node', [
    '--input-type=module',
    '-e',
    `console.log(await (await import(${JSON.stringify(compiled)})).default.load())`,
  ]);
  expect(stdout).toBe(entry('asks-node'));
});
