// BAD for V313 (ORACLES.md row V313, a renewal that re-creates a missing key): before each write the lease is renewed by a script that extends the key while it holds our token, re-creates it when it is missing and reports success, so a holder stopped past its lease silently re-takes the lock after another holder came and went. Its twin is lease-renew-checked.ts (compare-and-pexpire: 0 for a missing or foreign key).
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { sleep, stepMs, steps } from '../job-params.ts';
import { COMPARE_AND_DELETE } from '../lua.ts';
import { ioredisSlot } from './client.ts';

const redis = ioredisSlot();

/** Extend our key; if it is gone, take it again; 0 only when another token holds it. */
const EXTEND_OR_RECREATE = `
local current = redis.call('get', KEYS[1])
if current == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
if current == false then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`;

export default defineTarget({
  description:
    'ioredis job: SET NX PX checked, a renewal before each write that re-creates a missing key and reports success, checked',
  connect: (env) => redis.connect(env),
  async job(env) {
    const token = randomUUID();
    if ((await redis.get().set(env.key, token, 'PX', env.ttlMs, 'NX')) === null) {
      env.log('the lock is held elsewhere; skipping the job');
      return;
    }
    for (let i = 0; i < steps(env); i++) {
      if ((await redis.get().eval(EXTEND_OR_RECREATE, 1, env.key, token, env.ttlMs)) !== 1) {
        env.log('lost the lease');
        break;
      }
      await env.effect('write', { value: i });
      await sleep(stepMs(env));
    }
    await redis.get().eval(COMPARE_AND_DELETE, 1, env.key, token);
  },
  close: () => redis.close(),
});
