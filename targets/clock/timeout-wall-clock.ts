// BAD for V316 (ORACLES.md row V316): the timeout guard measures elapsed time with the wall clock,
// `Date.now() - start > limit`, so a wall-clock step back delays it and a step forward fires it early.
import { defineTarget } from '../contract.ts';
import { ioredisSlot } from '../redis/ioredis/client.ts';
import { startBlockingOperation } from './blocking-op.ts';

const redis = ioredisSlot();

export default defineTarget({
  description: 'ioredis BLPOP guarded by a Date.now() elapsed-time check polled every 5 ms',
  connect: (env) => redis.connect(env),
  async timeout(env) {
    const operation = startBlockingOperation(redis.get(), env.key);
    const start = Date.now();
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (Date.now() - start > env.ttlMs) {
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
