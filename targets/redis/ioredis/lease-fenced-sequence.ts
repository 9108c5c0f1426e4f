// GOOD for V313 --variant failover (a fence that survives a failover): lease-fenced.ts with its fencing token from a Postgres sequence in the harness's fence store (fenceStore: 'postgres', env.fenceUrl) instead of INCR on the lock's master, so the token cannot be lost with the master and handed out again: the resource rejects A's writes after B's.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { fenceSequence } from '../../postgres/fence-sequence.ts';
import { sleep, stepMs, steps } from '../job-params.ts';
import { COMPARE_AND_DELETE } from '../lua.ts';
import { ioredisSlot } from './client.ts';

const redis = ioredisSlot();
const fences = fenceSequence();

export default defineTarget({
  description:
    'ioredis job: SET NX PX checked, fencing token from a Postgres sequence (the fence store) passed with every write, no renewal',
  fenceStore: 'postgres',
  async connect(env) {
    await fences.connect(env);
    await redis.connect(env);
  },
  async job(env) {
    const token = randomUUID();
    if ((await redis.get().set(env.key, token, 'PX', env.ttlMs, 'NX')) === null) {
      env.log('the lock is held elsewhere; skipping the job');
      return;
    }
    const fence = await fences.next();
    for (let i = 0; i < steps(env); i++) {
      await env.effect('write', { fence, value: i });
      await sleep(stepMs(env));
    }
    await redis.get().eval(COMPARE_AND_DELETE, 1, env.key, token);
  },
  close: async () => {
    await redis.close();
    await fences.close();
  },
});
