// BAD for V313 (ORACLES.md row V313, lease shorter than the work): a fixed-TTL lease with no renewal, so a holder paused past the TTL keeps writing after the next holder took over.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { sleep, stepMs, steps } from '../job-params.ts';
import { COMPARE_AND_DELETE } from '../lua.ts';
import { nodeRedisSlot } from './client.ts';

const redis = nodeRedisSlot();

export default defineTarget({
  description: 'node-redis job: SET NX PX checked, fixed TTL with no renewal, writes, compare-and-delete',
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
