/** redis-semaphore's Mutex for one job: one try (SET NX PX under `mutex:<key>`), its own refresh every 0.8 × TTL. */
import { Mutex } from 'redis-semaphore';
import type { Redis } from 'ioredis';
import type { TargetEnv } from '../../contract.ts';

/** Where redis-semaphore keeps the lock: its Mutex prefixes the key. */
export const mutexKey = (env: TargetEnv): string => `mutex:${env.key}`;

/**
 * A Mutex on `env.key` for `env.ttlMs` that tries once; `onLost` is called when a refresh finds the
 * lock gone. It refreshes every `refreshInterval` ms (default the library's own, 0.8 × the TTL).
 */
export function jobMutex(client: Redis, env: TargetEnv, onLost: () => void, refreshInterval?: number): Mutex {
  return new Mutex(client, env.key, {
    lockTimeout: env.ttlMs,
    acquireAttemptsLimit: 1,
    onLockLost: onLost,
    ...(refreshInterval !== undefined ? { refreshInterval } : {}),
  });
}
