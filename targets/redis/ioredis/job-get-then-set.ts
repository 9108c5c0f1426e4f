// BAD for V312 (ORACLES.md row V312, check-then-act acquire): the job GETs the key and, when it is free, takes it with a plain SET (no NX). The plain V312 scenario (P already holds the lock when A starts) PASSes it; a holder that takes the lock between A's GET and A's SET is overwritten, and A writes while P holds the lock. --explore finds it (hold before A's SET).
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { sleep, stepMs, steps } from '../job-params.ts';
import { COMPARE_AND_DELETE } from '../lua.ts';
import { ioredisSlot } from './client.ts';

const redis = ioredisSlot();

export default defineTarget({
  description: 'ioredis job: GET the key; if free, SET it PX (no NX), then the writes, then compare-and-delete',
  connect: (env) => redis.connect(env),
  async job(env) {
    const token = randomUUID();
    if ((await redis.get().get(env.key)) !== null) {
      env.log('the lock is held elsewhere; skipping the job');
      return;
    }
    await redis.get().set(env.key, token, 'PX', env.ttlMs);
    for (let i = 0; i < steps(env); i++) {
      await env.effect('write', { value: i });
      await sleep(stepMs(env));
    }
    await redis.get().eval(COMPARE_AND_DELETE, 1, env.key, token);
  },
  close: () => redis.close(),
});
