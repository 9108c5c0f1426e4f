// GOOD for V310 (ORACLES.md row V310): the clock-guarded release with its DEL replaced by a Lua compare-and-delete, so a release that runs late deletes only a key that still holds its own token.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { COMPARE_AND_DELETE, COMPARE_AND_PEXPIRE } from '../lua.ts';
import { ioredisSlot } from './client.ts';

const redis = ioredisSlot();

export default defineTarget({
  description:
    "ioredis: SET NX PX acquire; release runs a Lua compare-and-delete while the holder's own clock says the lease is live",
  connect: (env) => redis.connect(env),
  async acquire(env) {
    const token = randomUUID();
    const deadline = Date.now() + env.ttlMs;
    if ((await redis.get().set(env.key, token, 'PX', env.ttlMs, 'NX')) === null) return null;
    return { token, deadline };
  },
  async release(env, lease) {
    if (Number(lease.deadline) <= Date.now()) return false;
    return (await redis.get().eval(COMPARE_AND_DELETE, 1, env.key, String(lease.token))) === 1;
  },
  async extend(env, lease, ttlMs) {
    return (await redis.get().eval(COMPARE_AND_PEXPIRE, 1, env.key, String(lease.token), ttlMs)) === 1;
  },
  close: () => redis.close(),
});
