/**
 * A job under a stale-takeover lock (ioredis): the lock's value is `<expiresAt>:<token>` on the
 * holder's clock, with no Redis TTL; a free key is taken with SET NX, a stale one (its expiry past
 * `Date.now()`) taken over; before each write the job checks its own lease has not run out by its
 * clock, and releases by compare-and-delete. The twins stale-takeover-job-cas.ts (GOOD) and
 * stale-takeover-job-del.ts (BAD) differ only in `atomicTakeover`.
 */
import { randomUUID } from 'node:crypto';
import { defineTarget, type Target } from '../../contract.ts';
import { sleep, stepMs, steps } from '../job-params.ts';
import { COMPARE_AND_DELETE } from '../lua.ts';
import { ioredisSlot } from './client.ts';

/** Replace KEYS[1]'s value with ARGV[2] only if it is still ARGV[1]: 1 when swapped, else 0. */
const COMPARE_AND_SWAP = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2]) return 1 end return 0`;

/** The expiry (ms since the epoch, on the writer's clock) a lock's value carries. */
const expiryOf = (value: string) => Number(value.split(':')[0]);

export interface StaleTakeoverOptions {
  /**
   * true: a stale lock is taken over by one compare-and-swap script on the value read; false: by DEL
   * then SET NX — two contenders that both read the stale value both delete and both take it, the
   * later DEL removing the lock the other has just taken.
   */
  atomicTakeover: boolean;
}

export function staleTakeoverJob({ atomicTakeover }: StaleTakeoverOptions): Target {
  const redis = ioredisSlot();
  return defineTarget({
    description: `ioredis job under SET NX of \`<expiresAt>:<token>\` (no TTL); a stale lock is taken over by ${atomicTakeover ? 'one compare-and-swap script' : 'DEL then SET NX'}; each write only while its own expiry is ahead`,
    connect: (env) => redis.connect(env),
    async job(env) {
      const expiresAt = Date.now() + env.ttlMs;
      const mine = `${expiresAt}:${randomUUID()}`;
      const client = redis.get();
      if ((await client.set(env.key, mine, 'NX')) === null) {
        const seen = await client.get(env.key);
        if (seen === null || expiryOf(seen) > Date.now()) return;
        if (atomicTakeover) {
          if ((await client.eval(COMPARE_AND_SWAP, 1, env.key, seen, mine)) !== 1) return;
        } else {
          await client.del(env.key);
          if ((await client.set(env.key, mine, 'NX')) === null) return;
        }
      }
      for (let i = 0; i < steps(env) && Date.now() < expiresAt; i++) {
        await env.effect('write', { value: i });
        await sleep(stepMs(env));
      }
      await client.eval(COMPARE_AND_DELETE, 1, env.key, mine);
    },
    close: () => redis.close(),
  });
}
