// Job shape (V312, V313): your job under your lock; every protected write goes through env.effect.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { defineTarget } from 'lock-oracles';

const DEL_IF_OURS = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";
let redis: Redis;

export default defineTarget({
  connect: ({ url }) => {
    redis = new Redis(url);
  },
  async job(env) {
    const token = randomUUID();
    // Denied: throwing is fine (the harness records it); so is returning without writing.
    if ((await redis.set(env.key, token, 'PX', env.ttlMs, 'NX')) !== 'OK') throw new Error(`${env.key} is busy`);
    const fence = await redis.incr(`${env.key}:fence`); // a fencing token: larger for every new holder
    const steps = Number(env.params.steps ?? 3); // V313 needs 2 writes or more: it stops A after its first
    for (let i = 0; i < steps; i++) {
      await env.effect('charge', { fence, value: i }); // the harness's resource rejects an older fence
      await new Promise((resolve) => setTimeout(resolve, Number(env.params.stepMs ?? 20)));
    }
    await redis.eval(DEL_IF_OURS, 1, env.key, token);
  },
  close: async () => {
    await redis.quit();
  },
});
