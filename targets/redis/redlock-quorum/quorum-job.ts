/**
 * One job body for the Redlock quorum references (V313 on `--topology redlock:N`): a Redlock over
 * one ioredis client per master (`env.urls`), `acquire([key], ttl)` with retryCount 0, the job's
 * writes, `release()`. Two guards, each one option, so every bad file differs from its good twin
 * by exactly one of them:
 *
 * - `checkValidity`: before acting, the lock's validity is checked (`lock.expiration > Date.now()`:
 *   Redlock's "elapsed < TTL − drift"); an acquire that returned a lock already spent is dropped.
 * - `fence`: every write carries a fencing token from `INCR` on `env.counterUrl`, a server that is
 *   not one of the masters. A counter on the masters is no fence: a master restarted empty forgets
 *   it, and B's majority need not include the node that counted A's token.
 *
 * `using` runs the writes in `redlock.using()` instead (auto-extension at half the TTL), its
 * routine checking `signal.aborted` before each write.
 */
import { Redis } from 'ioredis';
import { Redlock as SesameRedlock } from '@sesamecare-oss/redlock';
import { defineTarget, type Target, type TargetEnv } from '../../contract.ts';
import { sleep, stepMs, steps } from '../job-params.ts';
import { Redlock as Redlock5 } from '../redlock/redlock.ts';

export type RedlockLibrary = 'redlock' | '@sesamecare-oss/redlock';

export interface QuorumJobOptions {
  checkValidity: boolean;
  fence: boolean;
  /** Run the writes in `using()`, checking its signal, instead of acquire/release. */
  using?: boolean;
}

interface QuorumLock {
  readonly expiration: number;
  release(): Promise<unknown>;
}

interface QuorumRedlock {
  acquire(resources: string[], duration: number): Promise<QuorumLock>;
  using(
    resources: string[],
    duration: number,
    settings: { automaticExtensionThreshold: number },
    routine: (signal: AbortSignal) => Promise<unknown>,
  ): Promise<unknown>;
  quit(): Promise<void>;
}

/** A refusal (no quorum, or the lock no longer ours) is redlock's own error; anything else is a real one. */
function isRefusal(error: unknown): boolean {
  const name = (error as Error)?.name;
  return name === 'ExecutionError' || name === 'ResourceLockedError';
}

function newRedlock(library: RedlockLibrary, clients: Redis[]): QuorumRedlock {
  return library === 'redlock'
    ? new Redlock5(clients, { retryCount: 0 })
    : (new SesameRedlock(clients, { retryCount: 0 }) as unknown as QuorumRedlock);
}

function mastersOf(env: TargetEnv): readonly string[] {
  if (!env.urls?.length) throw new Error('this target needs several masters: run it with --topology redlock:5');
  return env.urls;
}

export function quorumJob(library: RedlockLibrary, options: QuorumJobOptions): Target {
  let redlock: QuorumRedlock | undefined;
  let counter: Redis | undefined;
  const connected = (): QuorumRedlock => {
    if (!redlock) throw new Error('not connected: the harness must call connect(env) first');
    return redlock;
  };

  async function writes(env: TargetEnv, signal?: AbortSignal): Promise<void> {
    const fence = counter ? await counter.incr(`${env.key}:fence`) : undefined;
    for (let i = 0; i < steps(env); i++) {
      if (signal?.aborted) return env.log(`lost the lock: ${String(signal.reason ?? 'redlock aborted the routine')}`);
      await env.effect('write', fence === undefined ? { value: i } : { fence, value: i });
      await sleep(stepMs(env));
    }
  }

  return defineTarget({
    description: `${library} over one ioredis client per master: ${options.using ? 'using() whose routine checks signal.aborted' : 'acquire, writes, release'}; validity ${options.checkValidity ? 'checked' : 'not checked'} before acting; ${options.fence ? 'fenced by INCR on a separate counter' : 'no fence'}`,
    async connect(env) {
      const clients = mastersOf(env).map((url) => new Redis(url, { lazyConnect: true }));
      for (const client of clients) client.on('error', (error: Error) => env.log(`ioredis: ${error.message}`));
      await Promise.all(clients.map((client) => client.connect()));
      redlock = newRedlock(library, clients);
      if (options.fence) {
        if (!env.counterUrl)
          throw new Error('the fenced target needs env.counterUrl: run it with --topology redlock:5');
        counter = new Redis(env.counterUrl);
      }
    },
    async job(env) {
      if (options.using) {
        const threshold = Math.floor(env.ttlMs / 2);
        await connected()
          .using([env.key], env.ttlMs, { automaticExtensionThreshold: threshold }, (signal) => writes(env, signal))
          .catch((error: unknown) => {
            if (!isRefusal(error)) throw error;
            env.log(`redlock refused: ${(error as Error).message}`);
          });
        return;
      }
      let lock: QuorumLock;
      try {
        lock = await connected().acquire([env.key], env.ttlMs);
      } catch (error) {
        if (!isRefusal(error)) throw error;
        return env.log(`no quorum: ${(error as Error).message}`);
      }
      try {
        if (options.checkValidity && lock.expiration <= Date.now()) {
          return env.log(
            `the lock came back already expired (${Date.now() - lock.expiration} ms ago): not acting on it`,
          );
        }
        await writes(env);
      } finally {
        await lock.release().catch((error: unknown) => {
          if (!isRefusal(error)) throw error;
          env.log(`release refused: ${(error as Error).message}`);
        });
      }
    },
    async close() {
      await redlock?.quit();
      counter?.disconnect();
      redlock = undefined;
      counter = undefined;
    },
  });
}
