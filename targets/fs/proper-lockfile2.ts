// @bybrave/proper-lockfile2 5.0.0 (npm), the maintained fork of proper-lockfile 4.1.2 with its API: GOOD for V311 on --store fs with --ttl 3000 or more and --contenders 3 explored, where proper-lockfile.ts is bad. It claims a stale lock by renaming it to a path of its own and re-checking the claimed directory's mtime is the stale one it saw (else gives it back), so of two contenders reclaiming one stale lock only one can remove it.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { defineTarget, type TargetEnv } from '../contract.ts';

interface ProperLockfile {
  lock(file: string, options: Record<string, unknown>): Promise<() => Promise<void>>;
}
/** Its API as this target uses it (the same as proper-lockfile's). */
const lockfile = createRequire(import.meta.url)('@bybrave/proper-lockfile2') as ProperLockfile;

/**
 * The stale time asked of proper-lockfile: it raises anything below 2000 ms to 2000, and it stamps
 * its lock's mtime up to a second ahead (its mtime-precision probe rounds up to the next second), so
 * a lock lives until mtime + stale ≤ its acquire + stale + 1000 ms: stale = TTL − 1000 keeps it
 * within env.ttlMs (run with --ttl 3000 or more).
 */
const staleMs = (env: TargetEnv) => Math.max(env.ttlMs - 1000, 2000);

function lockOptions(env: TargetEnv) {
  if (env.dir === undefined) throw new Error('this target keeps its lock in files: run it with --store fs');
  return {
    file: join(env.dir, env.key),
    options: {
      stale: staleMs(env),
      retries: 0,
      realpath: false,
      // The default throws from a timer, ending the holder; a compromised lock is only logged.
      onCompromised: (error: Error) => env.log(`proper-lockfile2: lock compromised: ${error.message}`),
    },
  };
}

const releases = new Map<string, () => Promise<void>>();

export default defineTarget({
  description: '@bybrave/proper-lockfile2 5.0.0: lock(file, { stale, retries: 0 }); release() from the lock',
  storeKey: (env) => ({ path: `${env.key}.lock`, staleMs: staleMs(env) }),
  async acquire(env) {
    const { file, options } = lockOptions(env);
    try {
      releases.set(env.holder, await lockfile.lock(file, options));
      return { holder: env.holder };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return null;
      throw error;
    }
  },
  async release(env) {
    await releases.get(env.holder)?.();
    releases.delete(env.holder);
    return true;
  },
});
