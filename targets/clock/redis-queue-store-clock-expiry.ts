// GOOD for V317 (ORACLES.md row V317): the Redis job queue with the lock stamped and compared on one clock, the store's (`TIME` inside the claim script), so no worker's clock enters the lock.
import { defineTarget } from '../contract.ts';
import { ioredisSlot } from '../redis/ioredis/client.ts';
import { CLAIM_ON_STORE_CLOCK, UNLOCK_IF_OWNER } from './queue-claim-scripts.ts';

const redis = ioredisSlot();

export default defineTarget({
  description: "ioredis job queue: lockExpiresAt = the store's TIME + ttl; recovered when it is below the store's TIME",
  connect: (env) => redis.connect(env),
  async acquire(env) {
    const claimed = await redis.get().eval(CLAIM_ON_STORE_CLOCK, 1, env.key, env.holder, env.ttlMs);
    return claimed === 1 ? { token: env.holder } : null;
  },
  async release(env) {
    await redis.get().eval(UNLOCK_IF_OWNER, 1, env.key, env.holder);
  },
  close: () => redis.close(),
});
