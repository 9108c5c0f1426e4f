// GOOD for V316 (ORACLES.md row V316): the bad twin's guard with the monotonic clock,
// `performance.now() - start > limit`, which no wall-clock step moves.
import { defineTarget } from '../contract.ts';
import { ioredisSlot } from '../redis/ioredis/client.ts';
import { startBlockingOperation } from './blocking-op.ts';

const redis = ioredisSlot();

export default defineTarget({
  description: 'ioredis BLPOP guarded by a performance.now() elapsed-time check polled every 5 ms',
  connect: (env) => redis.connect(env),
  async timeout(env) {
    const operation = startBlockingOperation(redis.get(), env.key);
    const start = performance.now();
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (performance.now() - start > env.ttlMs) {
          clearInterval(poll);
          resolve();
        }
      }, 5);
    });
    await env.effect('timeout', { value: { limitMs: env.ttlMs } });
    await operation.cancel();
  },
  close: () => redis.close(),
});
