// BAD for V311 (ORACLES.md row V311, TTL set non-atomically, no seam): `SET k tok NX` then `PEXPIRE` as two commands, with nothing between them the harness can hold; a holder killed after the SET NX reply leaves a key with no TTL. V311's plain scenario misses it (it kills after both commands) and its between-commands variant needs a seam this helper does not have.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { COMPARE_AND_DELETE, COMPARE_AND_PEXPIRE } from '../lua.ts';
import { ioredisSlot } from './client.ts';

const redis = ioredisSlot();

export default defineTarget({
  description: 'ioredis: SET NX then PEXPIRE acquire (two commands, no seam), Lua compare-and-delete release',
  connect: (env) => redis.connect(env),
  async acquire(env) {
    const token = randomUUID();
    if ((await redis.get().set(env.key, token, 'NX')) === null) return null;
    await redis.get().pexpire(env.key, env.ttlMs);
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
