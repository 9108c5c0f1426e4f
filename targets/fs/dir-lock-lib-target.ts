/**
 * A lock-shape target on the directory-lock library (dir-lock-lib.ts), bound through its public API
 * only: `lock()` per acquire, its unlock kept for release. The library names nothing the store
 * holds, so the lease reports no token: whose directory is there, the harness observes. Shared by
 * dir-lock-lib-by-path.ts and dir-lock-lib-checked.ts, which differ only by the library's `checked`.
 * Not a target itself.
 */
import { defineTarget, type Target, type TargetEnv } from '../contract.ts';
import { DirLock } from './dir-lock-lib.ts';
import { lockDir } from './lock-dir.ts';

export function dirLockLibTarget(options: { checked: boolean }, description: string): Target {
  const unlocks = new Map<number, () => Promise<boolean>>();
  let next = 0;
  const library = (env: TargetEnv) => new DirLock(lockDir(env).path, env.ttlMs, options);
  return defineTarget({
    description,
    storeKey: (env) => ({ path: lockDir(env).name, staleMs: env.ttlMs }),
    async acquire(env) {
      const unlock = await library(env).lock();
      if (!unlock) return null;
      unlocks.set(++next, unlock);
      return { handle: next };
    },
    async release(_env, lease) {
      const unlock = unlocks.get(Number(lease.handle));
      unlocks.delete(Number(lease.handle));
      return (await unlock?.()) ?? false;
    },
  });
}
