/**
 * A lock whose holder renews its own lease (a watchdog, as Redisson's or redis-semaphore's): SET NX
 * PX, then a compare-and-pexpire every TTL/3, on a connection of its own (as a client pool hands
 * the timer another connection), until the release has returned. The two references on it differ
 * only by the release: a bare DEL (watchdog-bare-del.ts) or a compare-and-delete (watchdog-cad.ts).
 * Holding A's delete at its wire proxy leaves the watchdog's connection running, so A's lease never
 * lapses: only a partition (all of A's store traffic held from its delete on) lets B in.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { defineTarget, type Target } from '../../contract.ts';
import { COMPARE_AND_PEXPIRE } from '../lua.ts';
import { ioredisSlot } from './client.ts';

export function watchdogLock(
  description: string,
  deleteLock: (redis: Redis, key: string, token: string) => Promise<boolean>,
): Target {
  const redis = ioredisSlot();
  const renewals = ioredisSlot();
  let watchdog: NodeJS.Timeout | undefined;
  const renew = async (key: string, token: string, ttlMs: number) =>
    (await renewals.get().eval(COMPARE_AND_PEXPIRE, 1, key, token, ttlMs)) === 1;
  return defineTarget({
    description,
    async connect(env) {
      await Promise.all([redis.connect(env), renewals.connect(env)]);
    },
    async acquire(env) {
      const token = randomUUID();
      if ((await redis.get().set(env.key, token, 'PX', env.ttlMs, 'NX')) === null) return null;
      watchdog = setInterval(() => void renew(env.key, token, env.ttlMs).catch(() => undefined), env.ttlMs / 3);
      return { token };
    },
    async release(env, lease) {
      // The watchdog stops once the release has returned (try/finally around the delete).
      try {
        return await deleteLock(redis.get(), env.key, String(lease.token));
      } finally {
        clearInterval(watchdog);
      }
    },
    extend: (env, lease, ttlMs) => renew(env.key, String(lease.token), ttlMs),
    async close() {
      clearInterval(watchdog);
      await Promise.all([redis.close(), renewals.close()]);
    },
  });
}
