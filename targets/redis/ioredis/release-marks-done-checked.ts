// GOOD for V310 (ORACLES.md row V310): release marks the claim done only while it still holds our token (Lua compare-and-mark-done).
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { COMPARE_AND_MARK_DONE, COMPARE_AND_PEXPIRE } from '../lua.ts';
import { ioredisSlot } from './client.ts';

const redis = ioredisSlot();

export default defineTarget({
  description:
    'ioredis job claim: SET NX PX claim, release marks it done only while it is ours (Lua); reports no token',
  connect: (env) => redis.connect(env),
  async acquire(env) {
    const token = randomUUID();
    if ((await redis.get().set(env.key, token, 'PX', env.ttlMs, 'NX')) === null) return null;
    return { claim: token };
  },
  async release(env, lease) {
    return (await redis.get().eval(COMPARE_AND_MARK_DONE, 1, env.key, String(lease.claim))) === 1;
  },
  async extend(env, lease, ttlMs) {
    return (await redis.get().eval(COMPARE_AND_PEXPIRE, 1, env.key, String(lease.claim), ttlMs)) === 1;
  },
  close: () => redis.close(),
});
