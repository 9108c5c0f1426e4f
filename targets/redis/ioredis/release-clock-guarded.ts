// BAD for V310 (ORACLES.md row V310, release guarded by the holder's own clock): the release deletes only while the holder's clock says its lease is live (`if (deadline > Date.now()) DEL`), as npm's redis-lock does; a holder held between that check and its DEL deletes the next holder's lock. The plain pause scenario misses it: A resumes after its own deadline and skips the DEL.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { COMPARE_AND_PEXPIRE } from '../lua.ts';
import { ioredisSlot } from './client.ts';

const redis = ioredisSlot();

export default defineTarget({
  description: "ioredis: SET NX PX acquire; release DELs only while the holder's own clock says the lease is live",
  connect: (env) => redis.connect(env),
  async acquire(env) {
    const token = randomUUID();
    const deadline = Date.now() + env.ttlMs;
    if ((await redis.get().set(env.key, token, 'PX', env.ttlMs, 'NX')) === null) return null;
    return { token, deadline };
  },
  async release(env, lease) {
    if (Number(lease.deadline) <= Date.now()) return false;
    return (await redis.get().del(env.key)) === 1;
  },
  async extend(env, lease, ttlMs) {
    return (await redis.get().eval(COMPARE_AND_PEXPIRE, 1, env.key, String(lease.token), ttlMs)) === 1;
  },
  close: () => redis.close(),
});
