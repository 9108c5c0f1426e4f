// BAD for V310 (ORACLES.md row V310, release without owner check): release marks the claim done (SET k done KEEPTTL) without checking it is still ours, so a holder whose lease lapsed overwrites the next holder's claim; C stays denied, only B's own extend shows the damage.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { COMPARE_AND_PEXPIRE } from '../lua.ts';
import { ioredisSlot } from './client.ts';

const redis = ioredisSlot();

export default defineTarget({
  description:
    'ioredis job claim: SET NX PX claim, release marks it done (SET k done KEEPTTL) with no owner check; reports no token',
  connect: (env) => redis.connect(env),
  async acquire(env) {
    const token = randomUUID();
    if ((await redis.get().set(env.key, token, 'PX', env.ttlMs, 'NX')) === null) return null;
    return { claim: token };
  },
  async release(env) {
    return (await redis.get().set(env.key, 'done', 'KEEPTTL')) === 'OK';
  },
  async extend(env, lease, ttlMs) {
    return (await redis.get().eval(COMPARE_AND_PEXPIRE, 1, env.key, String(lease.claim), ttlMs)) === 1;
  },
  close: () => redis.close(),
});
