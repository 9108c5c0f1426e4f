// GOOD for V318 (ORACLES.md row V318): no timestamps at all: read the version, write if it is unchanged
// (optimistic concurrency), retry on a conflict.
import { defineTarget } from '../contract.ts';
import { ioredisSlot } from '../redis/ioredis/client.ts';
import { WRITE_IF_VERSION } from './lww-scripts.ts';

const redis = ioredisSlot();

export default defineTarget({
  description:
    'ioredis: read the version counter, Lua write applied only when the version is unchanged, retried on conflict',
  connect: (env) => redis.connect(env),
  async write(env, value) {
    for (let attempt = 0; attempt < 10; attempt++) {
      const version = Number((await redis.get().hget(env.key, 'version')) ?? 0);
      if ((await redis.get().eval(WRITE_IF_VERSION, 1, env.key, value, version)) === 1) return;
    }
    throw new Error('version conflict on every one of 10 attempts');
  },
  async read(env) {
    return redis.get().hget(env.key, 'value');
  },
  close: () => redis.close(),
});
