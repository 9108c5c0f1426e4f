/**
 * A file lock's path as users write it (issue #34): storeKey's path relative to env.dir or absolute
 * under it, with `./`, a `..` inside env.dir or a trailing slash, and a directory lock's owner file
 * absolute, all name one lock, the one the holders' reported calls name; a path outside env.dir is a
 * usage error naming the fix. Explored, an absolute declaration traces the same filesystem calls on
 * the lock as the relative one and FAILs like it (before, only the seam was
 * on the lock). Real holders on a real directory.
 */
import { describe, expect, test } from 'vitest';
import { UsageError } from '../src/core/errors.ts';
import { explore } from '../src/explore/explore.ts';
import { fileLockIn } from '../src/families/fs/lock-path.ts';
import { runOracle } from '../src/run/run-oracle.ts';

const DIR = '/tmp/run/locks';

describe('fileLockIn: the path the harness names, relative to the store directory', () => {
  test.each([
    ['relative', 'k.lock', 'k.lock'],
    ['absolute under it', `${DIR}/k.lock`, 'k.lock'],
    ['with ./', './k.lock', 'k.lock'],
    ['with .. inside it', `${DIR}/sub/../k.lock`, 'k.lock'],
    ['with a trailing slash', `${DIR}/k.lock/`, 'k.lock'],
    ['in a subdirectory', 'locks/k.lock', 'locks/k.lock'],
    ['a name starting with ..', '..k.lock', '..k.lock'],
  ])('%s: %s is %s', (_, path, named) => {
    expect(fileLockIn(DIR, path)).toBe(named);
    expect(fileLockIn(DIR, { path, staleMs: 300 })).toEqual({ path: named, staleMs: 300 });
    expect(fileLockIn(DIR, { path, record: { owner: 'ownerId', expiresAt: 'expiresAt' } })).toEqual({
      path: named,
      record: { owner: 'ownerId', expiresAt: 'expiresAt' },
    });
  });

  test.each([
    ['relative', 'owner'],
    ['absolute', `${DIR}/k.lock/owner`],
    ['with ./', './owner'],
  ])("a directory lock's owner file %s is named inside the lock", (_, owner) => {
    expect(fileLockIn(DIR, { path: `${DIR}/k.lock`, owner })).toEqual({ path: 'k.lock', owner: 'owner' });
  });

  test.each([
    ['above the directory', `${DIR}/../k.lock`],
    ['elsewhere', '/var/tmp/k.lock'],
    ['the directory itself', `${DIR}/`],
  ])('a path %s is a usage error naming the fix', (_, path) => {
    expect(() => fileLockIn(DIR, path)).toThrow(UsageError);
    expect(() => fileLockIn(DIR, { path })).toThrow(
      /not under the store's directory .*build lock paths under env\.dir/,
    );
  });

  test("an owner file outside the lock's directory is a usage error naming the fix", () => {
    expect(() => fileLockIn(DIR, { path: 'k.lock', owner: `${DIR}/owner` })).toThrow(
      /not a file inside that directory: name the file inside the lock's directory, relative to it, e\.g\. owner: 'owner'/,
    );
  });

  test('a hash field or a lease row is left as it is (the fs store says it cannot read it)', () => {
    expect(fileLockIn(DIR, { key: 'job', field: 'owner' })).toEqual({ key: 'job', field: 'owner' });
  });
});

describe('runs on --store fs', () => {
  test('V310 on a storeKey written with ./, .. and a trailing slash, its owner file absolute: FAIL, the lock named as the calls name it, the mapping in the evidence', async () => {
    const record = await runOracle({
      oracle: 'V310',
      target: 'test/fixtures/targets/fs-lock-messy-path.ts',
      store: 'fs',
    });
    expect(record.verdict, record.explanation).toBe('FAIL');
    expect(record.explanation).toMatch(/stat lock-oracles:V310\.lock \+ owner/);
    const said = JSON.stringify(record.history);
    expect(said).toMatch(
      /storeKey\(env\) names the lock \/[^"]*\/\.\/sub\/\.\.\/lock-oracles:V310\.lock\/: that is lock-oracles:V310\.lock under env\.dir/,
    );
  }, 120_000);

  test('V310 on a storeKey outside env.dir: a usage error naming the fix', async () => {
    await expect(
      runOracle({ oracle: 'V310', target: 'test/fixtures/targets/fs-lock-outside-dir.ts', store: 'fs' }),
    ).rejects.toThrow(/not under the store's directory .*build lock paths under env\.dir/);
  }, 120_000);

  test('V310 --explore: the absolute-path twin traces the same calls on the lock as the relative one and FAILs like it', async () => {
    const [relative, absolute] = await Promise.all(
      ['targets/fs/mkdir-bare-rmdir.ts', 'targets/fs/mkdir-bare-rmdir-absolute.ts'].map((target) =>
        explore({ oracle: 'V310', target, store: 'fs', firstFail: true }),
      ),
    );
    expect(relative!.record.verdict, relative!.record.explanation).toBe('FAIL');
    expect(absolute!.record.verdict, absolute!.record.explanation).toBe('FAIL');
    // The same calls traced, each on the lock or not alike (before, only the seam was on the lock),
    // so the same points: a point under load may come out INCONCLUSIVE, so the minimal one is not compared.
    const onLock = (r: typeof relative) =>
      r!.record.exploration!.trace.map(
        (b) => `${b.part}#${b.index} ${b.text}${b.onKey ? ` (on the lock #${b.keyNth})` : ''}`,
      );
    expect(onLock(absolute)).toEqual(onLock(relative));
    expect(onLock(absolute)).toContain('release#2 rm lock-oracles:V310.lock (on the lock #1)');
    expect(absolute!.record.exploration!.boundaries).toBe(relative!.record.exploration!.boundaries);
    expect(absolute!.schedule!.boundary.kind).toBe('fs');
  }, 300_000);
});
