/**
 * A ready binding for redlock 5 (`redlock@5.0.0-beta.2`) and its maintained fork
 * `@sesamecare-oss/redlock`: the two have the same API, so one binding serves both.
 *
 *   export default fromRedlock(({ url }) => new Redlock([new Redis(url)]));
 *   export default fromRedlock(({ url }) => new Redlock([new Redis(url)]), { checkSignal: true });
 *
 * Lock shape (V310, V311): `redlock.acquire([key], ttl, { retryCount: 0 })`, `lock.release()`,
 * `lock.extend(ttl)`, with both seams around them. Job and leader shapes (V312, V313, V315):
 * `redlock.using([key], ttl, { retryCount: 0, automaticExtensionThreshold }, routine)`, the writes
 * made in the routine; with `checkSignal` the routine stops when redlock aborts its signal (the
 * auto-extension failed). Denials are redlock's own errors: a refused acquire or `using()` is a
 * denial, a refused release or extension reports false.
 */
import { defineTarget, type Lease, type Target, type TargetEnv } from '../contract.ts';
import { jobAndLeader, message } from './from-with-lock.ts';

/** What the binding uses of a Redlock instance (both libraries have it). */
export interface RedlockLike {
  acquire(resources: string[], duration: number, settings?: object): Promise<RedlockLockLike>;
  using(
    resources: string[],
    duration: number,
    settings: object,
    routine: (signal: AbortSignal) => Promise<unknown>,
  ): Promise<unknown>;
  quit(): Promise<void>;
}

export interface RedlockLockLike {
  readonly value: string;
  release(): Promise<unknown>;
  extend(duration: number): Promise<RedlockLockLike>;
}

export interface FromRedlockOptions {
  /** The `using()` routine checks `signal.aborted` before each write and stops when it is set. */
  checkSignal?: boolean;
}

/** redlock's refusals (the lock is held, or no longer ours) are these; anything else is a real error. */
function isRefusal(error: unknown): boolean {
  const name = (error as Error)?.name;
  return name === 'ExecutionError' || name === 'ResourceLockedError';
}

async function refused(operation: Promise<unknown>): Promise<boolean> {
  try {
    await operation;
    return false;
  } catch (error) {
    if (isRefusal(error)) return true;
    throw error;
  }
}

/**
 * redlock.using() requires automaticExtensionThreshold <= duration - 100; extending at the lease's
 * midpoint leaves as much slack for the extension's round trip as for the work before it.
 */
function extensionThreshold(env: TargetEnv): number {
  if (env.ttlMs < 200) throw new Error(`redlock.using() needs ttlMs >= 200 (got ${env.ttlMs}); pass e.g. --ttl 300`);
  return Math.floor(env.ttlMs / 2);
}

export function fromRedlock(
  connect: (env: TargetEnv) => RedlockLike | Promise<RedlockLike>,
  options: FromRedlockOptions = {},
): Target {
  let redlock: RedlockLike | undefined;
  const connected = (): RedlockLike => {
    if (!redlock) throw new Error('fromRedlock: not connected: the harness must call connect(env) first');
    return redlock;
  };
  const lockOf = (lease: Lease): RedlockLockLike => lease.lock as RedlockLockLike;

  return defineTarget({
    description: `redlock: acquire/release/extend, and using()${options.checkSignal ? ' whose routine checks signal.aborted' : ' whose routine ignores its signal'}`,
    async connect(env) {
      redlock = await connect(env);
    },
    async acquire(env) {
      let lock: RedlockLockLike;
      try {
        lock = await connected().acquire([env.key], env.ttlMs, { retryCount: 0 });
      } catch (error) {
        if (!isRefusal(error)) throw error;
        env.log(`redlock refused the lock: ${message(error)}`);
        return null;
      }
      await env.seam('acquire:after-set');
      return { token: lock.value, lock };
    },
    async release(env, lease) {
      await env.seam('release:before-delete');
      return !(await refused(lockOf(lease).release()));
    },
    async extend(_env, lease, ttlMs) {
      const extension = lockOf(lease).extend(ttlMs);
      if (await refused(extension)) return false;
      lease.lock = await extension;
      return true;
    },
    ...jobAndLeader(
      (env, fn) =>
        connected().using(
          [env.key],
          env.ttlMs,
          { retryCount: 0, automaticExtensionThreshold: extensionThreshold(env) },
          fn,
        ),
      options.checkSignal ? { stillHeld: (signal: AbortSignal) => !signal.aborted } : {},
    ),
    async close() {
      await redlock?.quit();
      redlock = undefined;
    },
  });
}
