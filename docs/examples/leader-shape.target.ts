// Leader shape (V315): your leader loop, until env.signal aborts; each leader write goes through env.effect.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { defineTarget } from 'lock-oracles';

const PEXPIRE_IF_OURS =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0";
let redis: Redis;

export default defineTarget({
  connect: ({ url }) => {
    redis = new Redis(url);
  },
  async leader(env) {
    const me = randomUUID();
    while (!env.signal.aborted) {
      const askedAt = performance.now();
      const leading =
        (await redis.set(env.key, me, 'PX', env.ttlMs, 'NX')) === 'OK' ||
        (await redis.eval(PEXPIRE_IF_OURS, 1, env.key, me, env.ttlMs)) === 1;
      // Act only on a lease confirmed a moment ago: an answer that took long may be about a lease already lost.
      if (leading && performance.now() - askedAt < env.ttlMs / 2) await env.effect('publish');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  },
  close: async () => {
    await redis.quit();
  },
});
