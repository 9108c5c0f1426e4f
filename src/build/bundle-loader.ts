/**
 * How a holder loads a package bundle (src/build/package-bundle.ts) without compiling it afresh in every
 * process: the bundle's directory holds the bundle itself and a small loader, the file a compiled
 * target requires. The loader compiles the bundle with V8's code cache for it when there is one,
 * and the first process that ran without a usable cache writes it as it exits, so it holds the
 * functions that process really compiled (ioredis's client and connect path, not just the top
 * level). The same code, the same semantics: a code cache only saves V8 from parsing and compiling
 * again, and V8 refuses one made by another V8 version or other flags (the loader then compiles
 * as node would and writes a fresh one). One instance per process: node's own require caches the
 * loader. ~25 ms of CPU per holder for ioredis on the project's machine (docs/benchmarks.md).
 */

/** The file a compiled target requires (the loader); the bundle is written beside it as BUNDLE_BODY. */
export const BUNDLE_FILE = 'packages.cjs';
export const BUNDLE_BODY = 'packages.bundle.js';

/** The loader's text: CommonJS, run by node's require. */
export const BUNDLE_LOADER = `'use strict';
// Loads ${BUNDLE_BODY} (beside this file) with V8's code cache for it: see lock-oracles' src/build/bundle-loader.ts.
const { readFileSync, writeFileSync, renameSync, rmSync } = require('node:fs');
const { Script, constants } = require('node:vm');
const { createRequire, wrap } = require('node:module');
const { join } = require('node:path');
const body = join(__dirname, ${JSON.stringify(BUNDLE_BODY)});
const cache = join(__dirname, \`${BUNDLE_BODY}.\${process.version}-\${process.arch}.v8cache\`);
let cachedData;
try {
  cachedData = readFileSync(cache);
} catch {
  // none yet: this process writes it
}
const script = new Script(wrap(readFileSync(body, 'utf8')), {
  filename: body,
  cachedData,
  importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
const bundled = { exports: {} };
script.runInThisContext().call(bundled.exports, bundled.exports, createRequire(body), bundled, body, __dirname);
module.exports = bundled.exports;
if (cachedData === undefined || script.cachedDataRejected) {
  process.once('exit', () => {
    const staging = \`\${cache}.\${process.pid}\`;
    try {
      writeFileSync(staging, script.createCachedData());
      renameSync(staging, cache);
    } catch {
      rmSync(staging, { force: true });
    }
  });
}
`;
