// BAD for V316 (ORACLES.md row V316): an absolute wall-clock deadline, `deadline = Date.now() + limit`,
// re-armed with setTimeout until `Date.now() >= deadline` (the shape of many lease watchdogs).
import { defineTarget } from '../contract.ts';
import { ioredisSlot } from '../redis/ioredis/client.ts';
import { startBlockingOperation } from './blocking-op.ts';

const redis = ioredisSlot();

export default defineTarget({
  description: 'ioredis BLPOP guarded by a Date.now() deadline re-armed with setTimeout',
  connect: (env) => redis.connect(env),
  async timeout(env) {
    const operation = startBlockingOperation(redis.get(), env.key);
    const deadline = Date.now() + env.ttlMs;
    await new Promise<void>((resolve) => {
      const check = () => {
        const left = deadline - Date.now();
        if (left <= 0) resolve();
        else setTimeout(check, Math.min(left, 50));
      };
      check();
    });
    await env.effect('timeout', { value: { limitMs: env.ttlMs } });
    await operation.cancel();
  },
  close: () => redis.close(),
});
