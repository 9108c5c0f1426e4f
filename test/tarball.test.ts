/**
 * What `npm publish` would ship, from the list of the run's one `npm pack` (test/package-tarball.ts;
 * its prepack builds dist/ and the types first): nothing that is not the tool (tests, fixtures, recorded reports, benchmark data, CI
 * scripts, scratch files), and everything the installed tool needs — the launchers, the compiled
 * entries package.json names, the build dist/build.json names with the listing `list` prints, every
 * source the build was built from (the built files name their sources, and `--build-only` rebuilds
 * from them), every oracle, the target contract and the licence.
 */
import { describe, expect, inject, test } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { oracleFiles } from '../src/core/invocation.ts';
import { packedFrom } from './package-tarball.ts';

const REPO = resolve(import.meta.dirname, '..');

/** Paths that must never ship, each with why. */
const NEVER: Array<[RegExp, string]> = [
  [/^test\//, 'the test suite'],
  [/(^|\/)fixtures\//, 'test fixtures'],
  [/^reports\/(?!README\.md$)/, 'recorded reports (only reports/README.md ships)'],
  [/^docs\//, 'docs and benchmark data (the README ships)'],
  [/^\.(ci|github)\//, 'CI scripts'],
  [/^scripts\/(?!(setup-system|container-engine)\.sh$)/, 'benchmarks and maintainer scripts'],
  [/^dist\/builder-/, "a build's temporary builder"],
  [/(^|\/)node_modules\//, 'installed packages'],
  [/(^|\/)\.cache\//, 'a cache'],
  [/\.(log|tgz|so|orig|rej|swp)$|~$/, 'a scratch or generated file'],
  [/(^|\/)(tmp|scratch)[-_./]/, 'a scratch file'],
  [/^(tsconfig|vitest)[^/]*$|^\.[^/]+$/, 'development configuration'],
];

/** The top-level entries a package may hold; anything new there must be added here on purpose. */
const TOP_LEVEL = [
  'bin',
  'dist',
  'src',
  'oracles',
  'scenarios',
  'targets',
  'sdk',
  'docker',
  'scripts',
  'reports',
  'package.json',
  'README.md',
  'LICENSE',
  'CHANGELOG.md',
];

interface Manifest {
  bin: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
  types: string;
  license?: string;
  private?: boolean;
}

describe('the published tarball', () => {
  test('ships the tool and nothing else', () => {
    const paths = packedFrom(inject('packed')).files;

    const shippedWrongly = paths.flatMap((path) =>
      NEVER.filter(([pattern]) => pattern.test(path)).map(([, why]) => `${path}: ${why}`),
    );
    expect(shippedWrongly).toEqual([]);
    expect([...new Set(paths.map((p) => p.split('/')[0]!))].filter((top) => !TOP_LEVEL.includes(top))).toEqual([]);

    const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Manifest;
    expect(manifest.private).toBeUndefined();
    expect(manifest.license).toBe('MIT');
    const exported = Object.values(manifest.exports).flatMap((entry) =>
      typeof entry === 'string' ? [entry] : Object.values(entry),
    );
    const stamp = JSON.parse(readFileSync(join(REPO, 'dist/build.json'), 'utf8')) as {
      cli: string;
      holderCommand: string;
      inputs: Record<string, unknown>;
    };
    const essentials = [
      ...Object.values(manifest.bin),
      'bin/holder-shell.js',
      manifest.types,
      ...exported,
      'dist/build.json',
      stamp.cli,
      stamp.holderCommand,
      `${dirname(dirname(stamp.cli))}/listing.json`,
      ...Object.keys(stamp.inputs),
      'src/index.ts',
      'src/vitest.ts',
      'src/cli/main.ts',
      'src/holder/holder-entry.ts',
      'sdk/python/lock_oracles.py',
      ...oracleFiles(REPO).map((file) => `oracles/${file}`),
      'targets/contract.ts',
      ...readdirSync(join(REPO, 'targets/adapters')).map((file) => `targets/adapters/${file}`),
      'scripts/setup-system.sh',
      'reports/README.md',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
    ].map((path) => path.replace(/^\.\//, ''));
    expect(essentials.filter((path) => !paths.includes(path))).toEqual([]);
  });
});
