// BAD for V311 (ORACLES.md row V311, TTL set non-atomically): SETNX then PEXPIRE, so a holder killed between the two leaves a key with no TTL.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { COMPARE_AND_DELETE, COMPARE_AND_PEXPIRE } from '../lua.ts';
import { nodeRedisSlot } from './client.ts';

const redis = nodeRedisSlot();

export default defineTarget({
  description: 'node-redis: SETNX then PEXPIRE acquire (two commands), Lua compare-and-delete release',
  connect: (env) => redis.connect(env),
  async acquire(env) {
    const token = randomUUID();
    if ((await redis.get().setNX(env.key, token)) === 0) return null;
    await env.seam('acquire:after-set');
    await redis.get().pExpire(env.key, env.ttlMs);
    return { token };
  },
  async release(env, lease) {
    await env.seam('release:before-delete');
    return (await redis.get().eval(COMPARE_AND_DELETE, { keys: [env.key], arguments: [String(lease.token)] })) === 1;
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
