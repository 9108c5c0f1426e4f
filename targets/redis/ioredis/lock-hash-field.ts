// GOOD for V310, V311, V313 (ORACLES.md rows V310, V311, V313): a correct lock kept in a hash field (job:<name> owner=<token>), declared with storeKey.
import { randomUUID } from 'node:crypto';
import { defineTarget, type TargetEnv } from '../../contract.ts';
import { HASH_CLAIM, HASH_COMPARE_AND_DELETE, HASH_COMPARE_AND_PEXPIRE } from '../lua.ts';
import { jobUnderLock } from '../lock-job.ts';
import { ioredisSlot } from './client.ts';

const redis = ioredisSlot();
const hashOf = (env: TargetEnv) => `job:${env.key}`;

const lock = defineTarget({
  description:
    'ioredis: a job hash job:<key> whose "owner" field is the lock (Lua claim with PEXPIRE, owner-checked delete and pexpire); job renews and checks before each write',
  connect: (env) => redis.connect(env),
  storeKey: (env) => ({ key: hashOf(env), field: 'owner' }),
  async acquire(env) {
    const token = randomUUID();
    if ((await redis.get().eval(HASH_CLAIM, 1, hashOf(env), token, env.ttlMs)) !== 1) return null;
    await env.seam('acquire:after-set');
    return { token };
  },
  async release(env, lease) {
    await env.seam('release:before-delete');
    return (await redis.get().eval(HASH_COMPARE_AND_DELETE, 1, hashOf(env), String(lease.token))) === 1;
  },
  async extend(env, lease, ttlMs) {
    return (await redis.get().eval(HASH_COMPARE_AND_PEXPIRE, 1, hashOf(env), String(lease.token), ttlMs)) === 1;
  },
  job: (env): Promise<void> => jobUnderLock(env, lock),
  close: () => redis.close(),
});

export default lock;
