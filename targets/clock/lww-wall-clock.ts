// BAD for V318 (ORACLES.md row V318): last-write-wins on the writer's wall clock,
// `if (incoming.updatedAt > existing.updatedAt)`, so a writer whose clock is behind loses although it wrote last.
import { defineTarget } from '../contract.ts';
import { ioredisSlot } from '../redis/ioredis/client.ts';
import { WRITE_IF_NEWER_TIMESTAMP } from './lww-scripts.ts';

const redis = ioredisSlot();

export default defineTarget({
  description: "ioredis: Lua write applied only when the writer's Date.now() is newer than the stored timestamp",
  connect: (env) => redis.connect(env),
  async write(env, value) {
    await redis.get().eval(WRITE_IF_NEWER_TIMESTAMP, 1, env.key, value, Date.now());
  },
  async read(env) {
    return redis.get().hget(env.key, 'value');
  },
  close: () => redis.close(),
});
