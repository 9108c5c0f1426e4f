// BAD for V312 (ORACLES.md row V312, acquire result ignored): the SET NX result is discarded, so the job writes while another holder has the lock.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { sleep, stepMs, steps } from '../job-params.ts';
import { COMPARE_AND_DELETE } from '../lua.ts';
import { ioredisSlot } from './client.ts';

const redis = ioredisSlot();

export default defineTarget({
  description: 'ioredis job: SET NX PX whose result is ignored, then the writes, then compare-and-delete',
  connect: (env) => redis.connect(env),
  async job(env) {
    const token = randomUUID();
    await redis.get().set(env.key, token, 'PX', env.ttlMs, 'NX');
    for (let i = 0; i < steps(env); i++) {
      await env.effect('write', { value: i });
      await sleep(stepMs(env));
    }
    await redis.get().eval(COMPARE_AND_DELETE, 1, env.key, token);
  },
  close: () => redis.close(),
});
