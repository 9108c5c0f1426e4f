// GOOD for V318 (ORACLES.md row V318): the bad twin's timestamp made a hybrid logical clock,
// max(Date.now(), stored + 1), so a write always orders after the write it replaced.
import { defineTarget } from '../contract.ts';
import { ioredisSlot } from '../redis/ioredis/client.ts';
import { WRITE_HYBRID_LOGICAL_CLOCK } from './lww-scripts.ts';

const redis = ioredisSlot();

export default defineTarget({
  description: 'ioredis: Lua write stamped max(writer Date.now(), stored stamp + 1) (a hybrid logical clock)',
  connect: (env) => redis.connect(env),
  async write(env, value) {
    await redis.get().eval(WRITE_HYBRID_LOGICAL_CLOCK, 1, env.key, value, Date.now());
  },
  async read(env) {
    return redis.get().hget(env.key, 'value');
  },
  close: () => redis.close(),
});
