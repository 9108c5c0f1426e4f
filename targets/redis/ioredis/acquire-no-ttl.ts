// BAD for V311 (ORACLES.md row V311, no TTL): SET key token NX without PX, so a holder killed while holding leaves the lock forever.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { COMPARE_AND_DELETE, COMPARE_AND_PEXPIRE } from '../lua.ts';
import { ioredisSlot } from './client.ts';

const redis = ioredisSlot();

export default defineTarget({
  description: 'ioredis: SET NX acquire with no TTL, Lua compare-and-delete release',
  connect: (env) => redis.connect(env),
  async acquire(env) {
    const token = randomUUID();
    const set = await redis.get().set(env.key, token, 'NX');
    if (set === null) return null;
    await env.seam('acquire:after-set');
    return { token };
  },
  async release(env, lease) {
    await env.seam('release:before-delete');
    return (await redis.get().eval(COMPARE_AND_DELETE, 1, env.key, String(lease.token))) === 1;
  },
  async extend(env, lease, ttlMs) {
    return (await redis.get().eval(COMPARE_AND_PEXPIRE, 1, env.key, String(lease.token), ttlMs)) === 1;
  },
  close: () => redis.close(),
});
