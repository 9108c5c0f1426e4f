/**
 * fromWithLock: a target from the most common helper shape, `withLock(client, key, ttlMs, fn)`:
 * take the lock, run `fn` while holding it, release it (and, in some helpers, renew it meanwhile).
 *
 *   export default fromWithLock(({ url }) => new Redis(url), withLock);
 *
 * One binding serves three shapes:
 * - lock shape (V310, V311): `acquire` enters `withLock` and waits inside `fn`; `release` lets `fn`
 *   return, so the helper's own release runs, and waits for `withLock` to finish.
 * - job shape (V312, V313): `job` runs `withLock` once; inside `fn` it makes `env.params.steps`
 *   writes through `env.effect`, `env.params.stepMs` apart (the job's writes are made inside `fn`).
 * - leader shape (V315): `leader` enters `withLock` and writes inside `fn`, `stepMs` apart, until
 *   `env.signal` aborts (or `stillHeld` says the lock is lost): holding the lock is leading. When
 *   denied, or when a term ends, it tries again.
 *
 * A `withLock` that is denied may throw or return without calling `fn`: both are a denial (the
 * error is logged to the run's history). A `withLock` that waits for the lock instead of giving up
 * must be configured to try once here (most helpers have a retry option), or `acquire` waits too.
 */
import { defineTarget, type Lease, type Target, type TargetEnv } from '../contract.ts';
import { sleep, stepMs, steps } from '../redis/job-params.ts';

/** Your helper, called as `withLock(client, key, ttlMs, fn)`; `fn` gets whatever your helper passes it. */
export type WithLock<C> = (
  client: C,
  key: string,
  ttlMs: number,
  fn: (...args: any[]) => Promise<unknown>,
) => Promise<unknown>;

export interface FromWithLockOptions<C> {
  /** The fencing token your helper passes `fn` (e.g. `(fence) => fence`); every write then carries it. */
  fence?: (...fnArgs: any[]) => number | undefined;
  /** False when `fn` should stop writing (e.g. `(signal) => !signal.aborted` for an AbortSignal your helper passes). */
  stillHeld?: (...fnArgs: any[]) => boolean;
  /** Close the client; by default `quit()`, `end()`, `close()` or `disconnect()`, whichever it has. */
  close?: (client: C) => unknown;
  /** Shown in reports. */
  description?: string;
}

interface HeldLock extends Lease {
  letGo(): void;
  finished: Promise<unknown>;
}

export function fromWithLock<C>(
  connect: (env: TargetEnv) => C | Promise<C>,
  withLock: WithLock<C>,
  options: FromWithLockOptions<C> = {},
): Target {
  let client: C | undefined;
  const connected = (): C => {
    if (client === undefined)
      throw new Error('fromWithLock: the client is not connected: the harness must call connect(env) first');
    return client;
  };

  return defineTarget({
    description: options.description ?? 'fromWithLock: your withLock(client, key, ttlMs, fn) helper',
    async connect(env) {
      client = await connect(env);
    },
    async acquire(env): Promise<HeldLock | null> {
      let letGo!: () => void;
      const released = new Promise<void>((resolve) => (letGo = resolve));
      let entered!: () => void;
      const inside = new Promise<void>((resolve) => (entered = resolve));
      const finished = withLock(connected(), env.key, env.ttlMs, async () => {
        entered();
        await released;
      });
      const first = await Promise.race([
        inside.then(() => 'inside' as const),
        finished.then(
          () => 'returned' as const,
          (error: unknown) => {
            env.log(`withLock threw before running fn (a denial): ${message(error)}`);
            return 'threw' as const;
          },
        ),
      ]);
      if (first !== 'inside') return null;
      return { letGo, finished };
    },
    async release(env, lease) {
      const held = lease as HeldLock;
      held.letGo();
      try {
        await held.finished;
        return true;
      } catch (error) {
        // fn returned, so the helper's own release ran and reported a failure (e.g. "the lock was lost").
        env.log(`withLock's release reported: ${message(error)}`);
        return false;
      }
    },
    ...jobAndLeader((env, fn) => withLock(connected(), env.key, env.ttlMs, fn), options),
    async close() {
      const c = client;
      client = undefined;
      if (c === undefined) return;
      if (options.close) {
        await options.close(c);
        return;
      }
      await closeClient(c);
    },
  });
}

/** Runs your lock once around `fn` (the user's withLock, bound to this holder's client). */
export type RunLocked = (env: TargetEnv, fn: (...fnArgs: any[]) => Promise<unknown>) => Promise<unknown>;

/** A locked run from a lock shape: acquire (no run when denied), `fn(lease)`, release. */
export function acquireRunRelease(
  acquire: (env: TargetEnv) => Promise<Lease | null>,
  release: (env: TargetEnv, lease: Lease) => Promise<unknown>,
): RunLocked {
  return async (env, fn) => {
    const lease = await acquire(env);
    if (!lease) return;
    try {
      await fn(lease);
    } finally {
      await release(env, lease);
    }
  };
}

/** The job shape (one locked run making `steps` writes inside `fn`) and the leader shape (writing inside `fn` until aborted). */
export function jobAndLeader(
  runLocked: RunLocked,
  options: Pick<FromWithLockOptions<unknown>, 'fence' | 'stillHeld'> = {},
): Pick<Target, 'job' | 'leader'> {
  /** The job's writes, inside `fn`: stop early when the helper says the lock is no longer held. */
  async function writeUnderLock(env: TargetEnv, name: string, fnArgs: unknown[], writes: number): Promise<void> {
    const fence = options.fence?.(...fnArgs);
    for (let i = 0; i < writes && !env.signal.aborted; i++) {
      if (options.stillHeld && !options.stillHeld(...fnArgs)) {
        env.log('the helper says the lock is no longer held: stopping before the next write');
        return;
      }
      await env.effect(name, { value: i, ...(fence === undefined ? {} : { fence }) });
      await sleep(stepMs(env));
    }
  }

  /** One locked run; resolves true when `fn` ran, false when the lock was denied (thrown or skipped). */
  async function once(env: TargetEnv, name: string, writes: number): Promise<boolean> {
    let entered = false;
    try {
      await runLocked(env, async (...fnArgs: unknown[]) => {
        entered = true;
        await writeUnderLock(env, name, fnArgs, writes);
      });
    } catch (error) {
      if (entered) throw error;
      env.log(`the lock helper threw before running fn (a denial): ${message(error)}`);
    }
    if (!entered) env.log('the lock is held elsewhere: fn did not run');
    return entered;
  }

  return {
    async job(env) {
      await once(env, 'write', steps(env));
    },
    async leader(env) {
      while (!env.signal.aborted) {
        // A term that ended in an error (a release that found the lock gone) ends that term only.
        // A leader holds the lock for its whole term: it writes inside fn until aborted (or told the lock is lost).
        const led = await once(env, 'lead', Infinity).catch((error: unknown) =>
          env.log(`the term ended with an error: ${message(error)}`),
        );
        if (led !== true) await sleep(stepMs(env));
      }
    },
  };
}

export const message = (error: unknown): string => (error as Error)?.message ?? String(error);

/** quit() (ioredis, node-redis), end() (pg), close() or disconnect(), whichever the client has. */
export async function closeClient(client: unknown): Promise<void> {
  const c = client as Record<string, unknown>;
  for (const method of ['quit', 'end', 'close', 'disconnect']) {
    if (typeof c?.[method] === 'function') {
      await (c[method] as () => unknown).call(c);
      return;
    }
  }
}
