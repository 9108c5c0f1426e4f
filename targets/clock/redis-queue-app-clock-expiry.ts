// BAD for V317 (ORACLES.md row V317, expiry written on one clock and compared on another, holder against holder): a Redis job queue stamps `lockExpiresAt = Date.now() + ttl` on the claiming worker's clock and another worker recovers the job when `lockExpiresAt < its own Date.now()`. The store's clock plays no part: a recovering worker whose clock runs ahead takes a live job (two workers), one whose clock runs behind leaves a dead worker's job stuck.
import { defineTarget } from '../contract.ts';
import { ioredisSlot } from '../redis/ioredis/client.ts';
import { CLAIM_ON_CALLER_CLOCK, UNLOCK_IF_OWNER } from './queue-claim-scripts.ts';

const redis = ioredisSlot();

export default defineTarget({
  description:
    "ioredis job queue: lockExpiresAt = the claiming worker's Date.now() + ttl; recovered when it is below another worker's Date.now()",
  connect: (env) => redis.connect(env),
  async acquire(env) {
    const claimed = await redis.get().eval(CLAIM_ON_CALLER_CLOCK, 1, env.key, env.holder, env.ttlMs, Date.now());
    return claimed === 1 ? { token: env.holder } : null;
  },
  async release(env) {
    await redis.get().eval(UNLOCK_IF_OWNER, 1, env.key, env.holder);
  },
  close: () => redis.close(),
});
