// GOOD for V311 (ORACLES.md row V311): the two-command twin with the TTL set in the command that creates the key, `SET k tok PX ttl NX`, so no kill can leave a key without one. No seams, like its twin.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { COMPARE_AND_DELETE, COMPARE_AND_PEXPIRE } from '../lua.ts';
import { ioredisSlot } from './client.ts';

const redis = ioredisSlot();

export default defineTarget({
  description: 'ioredis: SET NX PX acquire (one command, no seam), Lua compare-and-delete release',
  connect: (env) => redis.connect(env),
  async acquire(env) {
    const token = randomUUID();
    if ((await redis.get().set(env.key, token, 'PX', env.ttlMs, 'NX')) === null) return null;
    return { token };
  },
  async release(env, lease) {
    return (await redis.get().eval(COMPARE_AND_DELETE, 1, env.key, String(lease.token))) === 1;
  },
  async extend(env, lease, ttlMs) {
    return (await redis.get().eval(COMPARE_AND_PEXPIRE, 1, env.key, String(lease.token), ttlMs)) === 1;
  },
  close: () => redis.close(),
});
