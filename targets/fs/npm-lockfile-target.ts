/**
 * A V311 target on npm's `lockfile` 1.0.4 (`<key>.lock` created with `wx`; stale when its ctime is
 * older than `stale`; released by unlinking it), shared by its twins: npm-lockfile-sync.ts takes it
 * with `lockSync`, npm-lockfile.ts with `lock`. The package reclaims a stale lock one of two ways,
 * which is all the twins differ by: `lockSync` stats it, finds it stale, unlinks it and creates it
 * again (nothing re-checked); `lock` first takes `<key>.lock.STALE` (a `wx` create, the guard),
 * stats the lock again under it, and only then unlinks it and links the `.STALE` file in its place.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { defineTarget, type Target, type TargetEnv } from '../contract.ts';

/** lockfile ships no types; the part of its API these targets use. */
export interface NpmLockfile {
  lockSync(path: string, options: { stale: number }): void;
  lock(path: string, options: { stale: number }, callback: (error: NodeJS.ErrnoException | null) => void): void;
  unlockSync(path: string): void;
}

export const npmLockfile = createRequire(import.meta.url)('lockfile') as NpmLockfile;

/** The lock's path; its stale time is the TTL (the package compares the file's ctime with Date.now()). */
function lockOf(env: TargetEnv): { path: string; options: { stale: number } } {
  if (env.dir === undefined) throw new Error('this target keeps its lock in a file: run it with --store fs');
  return { path: join(env.dir, `${env.key}.lock`), options: { stale: env.ttlMs } };
}

/** The lock-shape target whose acquire is `take` (resolves when taken; an EEXIST error is a denial). */
export function npmLockfileTarget(
  description: string,
  take: (path: string, options: { stale: number }) => Promise<void>,
): Target {
  return defineTarget({
    description,
    storeKey: (env) => ({ path: `${env.key}.lock`, staleMs: env.ttlMs }),
    async acquire(env) {
      const { path, options } = lockOf(env);
      try {
        await take(path, options);
        return { holder: env.holder };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return null;
        throw error;
      }
    },
    async release(env) {
      npmLockfile.unlockSync(lockOf(env).path);
      return true;
    },
  });
}
