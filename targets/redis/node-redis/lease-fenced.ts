// GOOD for V313 (ORACLES.md row V313, fencing token checked at the write): no renewal, but every write carries a fence from INCR, so the resource rejects a lapsed holder's writes.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { sleep, stepMs, steps } from '../job-params.ts';
import { COMPARE_AND_DELETE } from '../lua.ts';
import { nodeRedisSlot } from './client.ts';

const redis = nodeRedisSlot();

export default defineTarget({
  description: 'node-redis job: SET NX PX checked, fencing token from INCR passed with every write, no renewal',
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
    const fence = await redis.get().incr(`${env.key}:fence`);
    for (let i = 0; i < steps(env); i++) {
      await env.effect('write', { fence, value: i });
      await sleep(stepMs(env));
    }
    await redis.get().eval(COMPARE_AND_DELETE, { keys: [env.key], arguments: [token] });
  },
  close: () => redis.close(),
});
