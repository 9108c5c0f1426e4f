/**
 * A V311 target on proper-lockfile's API (`lock(file, options)` resolving to its release), shared by
 * proper-lockfile.ts and its fork's twin proper-lockfile2.ts: the twins differ only by the package.
 */
import { join } from 'node:path';
import { defineTarget, type Target, type TargetEnv } from '../contract.ts';

/** proper-lockfile ships no types; its API as these targets use it (the fork's is the same). */
export interface ProperLockfile {
  lock(file: string, options: Record<string, unknown>): Promise<() => Promise<void>>;
}

/**
 * The stale time asked of proper-lockfile: it raises anything below 2000 ms to 2000, and it stamps
 * its lock's mtime up to a second ahead (its mtime-precision probe rounds up to the next second), so
 * a lock lives until mtime + stale ≤ its acquire + stale + 1000 ms: stale = TTL − 1000 keeps it
 * within env.ttlMs (run with --ttl 3000 or more).
 */
const staleMs = (env: TargetEnv) => Math.max(env.ttlMs - 1000, 2000);

function lockOptions(env: TargetEnv, name: string) {
  if (env.dir === undefined) throw new Error('this target keeps its lock in files: run it with --store fs');
  return {
    file: join(env.dir, env.key),
    options: {
      stale: staleMs(env),
      retries: 0,
      realpath: false,
      // The default throws from a timer, ending the holder; a compromised lock is only logged.
      onCompromised: (error: Error) => env.log(`${name}: lock compromised: ${error.message}`),
    },
  };
}

/** The lock-shape target on `lockfile` (the package `name`, for the history's lines). */
export function properLockfileTarget(lockfile: ProperLockfile, name: string, description: string): Target {
  const releases = new Map<string, () => Promise<void>>();
  return defineTarget({
    description,
    storeKey: (env) => ({ path: `${env.key}.lock`, staleMs: staleMs(env) }),
    async acquire(env) {
      const { file, options } = lockOptions(env, name);
      try {
        releases.set(env.holder, await lockfile.lock(file, options));
        return { holder: env.holder };
      } catch (error) {
        const { code, syscall } = error as NodeJS.ErrnoException;
        if (code === 'ELOCKED') return null;
        // The lock this try had just made (its mkdir succeeded) vanished before the library's mtime
        // probe read it (stat or utimes, whose error Node names syscall 'utime'): a contender that saw
        // the old stale lock renamed the fresh one away to reclaim it, and gives it back. lock()
        // rejects: this try did not take the lock. A failing mkdir (no lock directory) still throws.
        if (code === 'ENOENT' && (syscall === 'stat' || syscall === 'utime' || syscall === 'utimes')) {
          env.log(`${name}: lock() rejected with ENOENT (the lock it made was moved by a contender): not taken`);
          return null;
        }
        throw error;
      }
    },
    async release(env) {
      await releases.get(env.holder)?.();
      releases.delete(env.holder);
      return true;
    },
  });
}
