// GOOD for V312 (ORACLES.md row V312): the job returns before its first write when SET NX says the lock is taken.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { sleep, stepMs, steps } from '../job-params.ts';
import { COMPARE_AND_DELETE } from '../lua.ts';
import { nodeRedisSlot } from './client.ts';

const redis = nodeRedisSlot();

export default defineTarget({
  description: 'node-redis job: SET NX PX checked before the first write, then the writes, then compare-and-delete',
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
      await env.effect('write', { value: i });
      await sleep(stepMs(env));
    }
    await redis.get().eval(COMPARE_AND_DELETE, { keys: [env.key], arguments: [token] });
  },
  close: () => redis.close(),
});
