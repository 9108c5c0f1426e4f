// BAD for V310, narrow variant (ORACLES.md row V310): release is GET, compare, then DEL as separate commands; a pause between the compare and the DEL deletes the next holder's lock.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { COMPARE_AND_PEXPIRE } from '../lua.ts';
import { nodeRedisSlot } from './client.ts';

const redis = nodeRedisSlot();

export default defineTarget({
  description: 'node-redis: SET NX PX acquire, non-atomic GET -> compare -> DEL release',
  connect: (env) => redis.connect(env),
  async acquire(env) {
    const token = randomUUID();
    const set = await redis
      .get()
      .set(env.key, token, { expiration: { type: 'PX', value: env.ttlMs }, condition: 'NX' });
    if (set === null) return null;
    await env.seam('acquire:after-set');
    return { token };
  },
  async release(env, lease) {
    if ((await redis.get().get(env.key)) !== lease.token) return false;
    await env.seam('release:before-delete');
    return (await redis.get().del(env.key)) === 1;
  },
  async extend(env, lease, ttlMs) {
    return (
      (await redis
        .get()
        .eval(COMPARE_AND_PEXPIRE, { keys: [env.key], arguments: [String(lease.token), String(ttlMs)] })) === 1
    );
  },
  close: () => redis.close(),
});
