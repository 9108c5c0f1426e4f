// BAD for V313 (ORACLES.md row V313, renewal result ignored): the lease is extended before each write but a failed extension is not checked.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { sleep, stepMs, steps } from '../job-params.ts';
import { COMPARE_AND_DELETE, COMPARE_AND_PEXPIRE } from '../lua.ts';
import { nodeRedisSlot } from './client.ts';

const redis = nodeRedisSlot();

export default defineTarget({
  description: 'node-redis job: SET NX PX checked, compare-and-pexpire before each write with its result ignored',
  connect: (env) => redis.connect(env),
  async job(env) {
    const token = randomUUID();
    if (
      (await redis.get().set(env.key, token, { expiration: { type: 'PX', value: env.ttlMs }, condition: 'NX' })) ===
      null
    ) {
      env.log('the lock is held elsewhere; skipping the job');
      return;
    }
    for (let i = 0; i < steps(env); i++) {
      await redis.get().eval(COMPARE_AND_PEXPIRE, { keys: [env.key], arguments: [token, String(env.ttlMs)] });
      await env.effect('write', { value: i });
      await sleep(stepMs(env));
    }
    await redis.get().eval(COMPARE_AND_DELETE, { keys: [env.key], arguments: [token] });
  },
  close: () => redis.close(),
});
