// GOOD for V310 and V311 (ORACLES.md rows V310, V311): SET key token PX ttl NX; release and extend are Lua compare-and-delete / compare-and-pexpire.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { COMPARE_AND_DELETE, COMPARE_AND_PEXPIRE } from '../lua.ts';
import { nodeRedisSlot } from './client.ts';

const redis = nodeRedisSlot();

export default defineTarget({
  description: 'node-redis: SET NX PX acquire, Lua compare-and-delete release, Lua compare-and-pexpire extend',
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
