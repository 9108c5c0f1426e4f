/**
 * A compiled holder module must see its packages exactly as node would: the same files, the same
 * module instances, the same default and named imports. The same source is run twice, as plain
 * .mjs by node itself (the ground truth) and compiled by src/build/compile-module.ts from a .ts copy,
 * against a scratch project with a CommonJS package (module.exports with __esModule and its own
 * `default`, the case where bundlers and node disagree) and an ES module package.
 */
import { afterAll, expect, test } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { compileModule } from '../src/build/compile-module.ts';

const dir = mkdtempSync(join(tmpdir(), 'lock-oracles-compile-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const files: Record<string, string> = {
  'node_modules/cjs-pkg/package.json': JSON.stringify({ name: 'cjs-pkg', main: 'lib/index.js' }),
  'node_modules/cjs-pkg/lib/index.js': `
    Object.defineProperty(exports, '__esModule', { value: true });
    exports.default = function makeClient() { return 'client'; };
    exports.named = 'named export';
    exports.loads = (globalThis.__cjsLoads = (globalThis.__cjsLoads ?? 0) + 1);
    exports.where = __dirname.endsWith('/cjs-pkg/lib');`,
  'node_modules/esm-pkg/package.json': JSON.stringify({ name: 'esm-pkg', type: 'module', main: 'index.js' }),
  'node_modules/esm-pkg/index.js': `import cjs from 'cjs-pkg'; export const viaEsm = cjs; export default 'esm default';`,
};
const source = `
import { createRequire } from 'node:module';
import cjs, { named, where } from 'cjs-pkg';
import * as namespace from 'cjs-pkg';
import esm, { viaEsm } from 'esm-pkg';
const required = createRequire(import.meta.url)('cjs-pkg');
process.stdout.write(JSON.stringify({
  defaultIsModuleExports: cjs === required,
  defaultKeys: Object.keys(cjs).sort(),
  named, where,
  namespaceKeys: Object.keys(namespace).sort(),
  sameInstanceThroughEsm: viaEsm === required,
  loads: globalThis.__cjsLoads,
  esm,
}));`;
for (const [path, text] of Object.entries(files)) {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
}
writeFileSync(join(dir, 'entry.mjs'), source);
writeFileSync(join(dir, 'entry.ts'), source);

test('a compiled module sees its CommonJS and ES module packages as node does, one instance each', async () => {
  const byNode = JSON.parse((await execa(process.execPath, [join(dir, 'entry.mjs')])).stdout) as Record<
    string,
    unknown
  >;
  const compiled = await compileModule(join(dir, 'entry.ts'));
  expect(readFileSync(compiled, 'utf8'), 'the package is loaded by node, not bundled').not.toContain('named export');
  const byCompiled = JSON.parse((await execa(process.execPath, [compiled])).stdout) as Record<string, unknown>;
  expect(byNode).toMatchObject({
    defaultIsModuleExports: true,
    named: 'named export',
    where: true,
    sameInstanceThroughEsm: true,
    loads: 1,
    esm: 'esm default',
  });
  expect(byCompiled).toEqual(byNode);
});
