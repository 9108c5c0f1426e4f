// GOOD for V316 (ORACLES.md row V316): the bad deadline twin rewritten with AbortSignal.timeout(limit),
// whose timer runs on the monotonic clock.
import { defineTarget } from '../contract.ts';
import { ioredisSlot } from '../redis/ioredis/client.ts';
import { startBlockingOperation } from './blocking-op.ts';

const redis = ioredisSlot();

export default defineTarget({
  description: 'ioredis BLPOP guarded by AbortSignal.timeout',
  connect: (env) => redis.connect(env),
  async timeout(env) {
    const operation = startBlockingOperation(redis.get(), env.key);
    const signal = AbortSignal.timeout(env.ttlMs);
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    await env.effect('timeout', { value: { limitMs: env.ttlMs } });
    await operation.cancel();
  },
  close: () => redis.close(),
});
