// GOOD for V310, V311, V313 (ORACLES.md rows V310, V311, V313): a correct lock kept under a prefixed key ("lock.<name>", as many libraries do), declared with storeKey.
import { randomUUID } from 'node:crypto';
import { defineTarget, type TargetEnv } from '../../contract.ts';
import { COMPARE_AND_DELETE, COMPARE_AND_PEXPIRE } from '../lua.ts';
import { jobUnderLock } from '../lock-job.ts';
import { ioredisSlot } from './client.ts';

const redis = ioredisSlot();
const keyOf = (env: TargetEnv) => `lock.${env.key}`;

const lock = defineTarget({
  description:
    'ioredis: SET lock.<key> NX PX acquire, Lua compare-and-delete release, compare-and-pexpire extend; job renews and checks before each write',
  connect: (env) => redis.connect(env),
  storeKey: keyOf,
  async acquire(env) {
    const token = randomUUID();
    if ((await redis.get().set(keyOf(env), token, 'PX', env.ttlMs, 'NX')) === null) return null;
    await env.seam('acquire:after-set');
    return { token };
  },
  async release(env, lease) {
    await env.seam('release:before-delete');
    return (await redis.get().eval(COMPARE_AND_DELETE, 1, keyOf(env), String(lease.token))) === 1;
  },
  async extend(env, lease, ttlMs) {
    return (await redis.get().eval(COMPARE_AND_PEXPIRE, 1, keyOf(env), String(lease.token), ttlMs)) === 1;
  },
  job: (env): Promise<void> => jobUnderLock(env, lock),
  close: () => redis.close(),
});

export default lock;
