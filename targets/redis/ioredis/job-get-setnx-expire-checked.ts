// GOOD for V312 (ORACLES.md row V312, acquire result checked): the job GETs the key and, when it is free, takes it with SETNX, checks SETNX's result, then sets the TTL with EXPIRE. Explored, a hold before A's SETNX lets P in and A's SETNX is refused; a hold before A's EXPIRE cannot let P in (A already holds the lock there), so that point is not applicable.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { sleep, stepMs, steps } from '../job-params.ts';
import { COMPARE_AND_DELETE } from '../lua.ts';
import { ioredisSlot } from './client.ts';

const redis = ioredisSlot();

export default defineTarget({
  description: 'ioredis job: GET the key; if free, SETNX (result checked), then EXPIRE, the writes, compare-and-delete',
  connect: (env) => redis.connect(env),
  async job(env) {
    const token = randomUUID();
    if ((await redis.get().get(env.key)) !== null) {
      env.log('the lock is held elsewhere; skipping the job');
      return;
    }
    if ((await redis.get().setnx(env.key, token)) === 0) {
      env.log('another holder took the lock between the GET and the SETNX; skipping the job');
      return;
    }
    await redis.get().expire(env.key, Math.max(1, Math.ceil(env.ttlMs / 1000)));
    for (let i = 0; i < steps(env); i++) {
      await env.effect('write', { value: i });
      await sleep(stepMs(env));
    }
    await redis.get().eval(COMPARE_AND_DELETE, 1, env.key, token);
  },
  close: () => redis.close(),
});
