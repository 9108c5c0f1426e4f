// BAD for V312 (ORACLES.md row V312, acquire result ignored): the job GETs the key and, when it is free, takes it with SETNX but ignores SETNX's result, then sets the TTL with EXPIRE. The plain V312 scenario (P already holds the lock when A starts) PASSes it (A's GET sees P's lock); explored, a hold before A's SETNX lets P take the lock, and A writes anyway.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { sleep, stepMs, steps } from '../job-params.ts';
import { COMPARE_AND_DELETE } from '../lua.ts';
import { ioredisSlot } from './client.ts';

const redis = ioredisSlot();

export default defineTarget({
  description: 'ioredis job: GET the key; if free, SETNX (result ignored), then EXPIRE, the writes, compare-and-delete',
  connect: (env) => redis.connect(env),
  async job(env) {
    const token = randomUUID();
    if ((await redis.get().get(env.key)) !== null) {
      env.log('the lock is held elsewhere; skipping the job');
      return;
    }
    await redis.get().setnx(env.key, token);
    await redis.get().expire(env.key, Math.max(1, Math.ceil(env.ttlMs / 1000)));
    for (let i = 0; i < steps(env); i++) {
      await env.effect('write', { value: i });
      await sleep(stepMs(env));
    }
    await redis.get().eval(COMPARE_AND_DELETE, 1, env.key, token);
  },
  close: () => redis.close(),
});
