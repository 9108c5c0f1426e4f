/**
 * The reference targets' libraries are devDependencies (an install of the tool does not carry
 * them): every package a shipped reference target imports is pinned in package.json, so the
 * `npm i -D` line `references` and `selfcheck` print names a version; here (a clone, devDependencies
 * installed) the check passes; and a shipped target whose package is missing stops with that line.
 * Real files only: the repository's targets, and a scratch package root with one target.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkReferencePackages, packagesImported } from '../src/run/reference-packages.ts';
import { referenceCases } from '../src/run/references.ts';
import { UsageError } from '../src/core/errors.ts';

const REPO = resolve(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const scratch = mkdtempSync(join(tmpdir(), 'lock-oracles-reference-packages-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the packages the reference targets import', () => {
  test('are found through imports, relative imports and createRequire', () => {
    expect([...packagesImported(join(REPO, 'targets/bindings/sesame-redlock.ts'), 'lock-oracles')].sort()).toEqual([
      '@sesamecare-oss/redlock',
      'ioredis',
    ]);
    // createRequire(import.meta.url)('proper-lockfile'), beside a relative import of the shared target.
    expect(packagesImported(join(REPO, 'targets/fs/proper-lockfile.ts'), 'lock-oracles')).toContain('proper-lockfile');
    // A Go or Java target's imports (Go's `import (\n\t"crypto/rand"` reads like an import of a quoted name) are no npm packages.
    expect(packagesImported(join(REPO, 'targets/go/redigo_release_bare_del.go'), 'lock-oracles').size).toBe(0);
    expect(packagesImported(join(REPO, 'targets/java/AdvisoryLockPoolQuery.java'), 'lock-oracles').size).toBe(0);
  });

  test('are each pinned in package.json, and the references only need the devDependencies beside the dependencies', async () => {
    const targets = (await referenceCases()).map((c) => c.reference.target);
    const imported = new Set(targets.flatMap((t) => [...packagesImported(join(REPO, t), 'lock-oracles')]));
    expect(imported.size).toBeGreaterThan(5);
    const unpinned = [...imported].filter((name) => !manifest.dependencies[name] && !manifest.devDependencies[name]);
    expect(unpinned).toEqual([]);
    // The harness's own dependencies are not the references' libraries.
    expect(Object.keys(manifest.dependencies)).not.toContain('redlock');
    expect(Object.keys(manifest.dependencies)).not.toContain('proper-lockfile');
    expect(() => checkReferencePackages(targets)).not.toThrow();
  });

  test('a shipped target whose package is not installed stops with the npm i -D line', () => {
    mkdirSync(join(scratch, 'targets'));
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({ name: 'lock-oracles', devDependencies: { 'lock-oracles-absent-lib': '1.2.3' } }),
    );
    writeFileSync(
      join(scratch, 'targets/uses-absent.ts'),
      "import { lock } from 'lock-oracles-absent-lib';\nimport { defineTarget } from 'lock-oracles';\nexport default defineTarget({ lock });\n",
    );
    let thrown: unknown;
    try {
      checkReferencePackages(['targets/uses-absent.ts'], scratch);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as Error).message).toContain('npm i -D lock-oracles-absent-lib@1.2.3');
    expect((thrown as Error).message).not.toContain('lock-oracles@'); // its own name is not a missing package
    // A target outside the package's targets/ (the user's own) is the user's business.
    expect(() => checkReferencePackages([join(scratch, 'elsewhere.ts')], scratch)).not.toThrow();
  });
});
