// BAD for V313 --variant failover: SET NX PX on one pooled connection, WAIT 1 on another. WAIT counts only its own connection's writes, so it returns at once and protects nothing: a failover still loses the lock.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { sleep, stepMs, steps } from '../job-params.ts';
import { COMPARE_AND_DELETE } from '../lua.ts';
import { ioredisSlot } from './client.ts';

// A pool of two connections, as a pooled client has.
const pool = [ioredisSlot(), ioredisSlot()];

export default defineTarget({
  description:
    'ioredis job: SET NX PX checked, then WAIT 1 sent on another connection of its pool of two, result checked; fixed TTL, writes, compare-and-delete',
  connect: async (env) => {
    for (const slot of pool) await slot.connect(env);
  },
  async job(env) {
    const redis = pool[0]!.get();
    const token = randomUUID();
    if ((await redis.set(env.key, token, 'PX', env.ttlMs, 'NX')) === null) {
      env.log('the lock is held elsewhere; skipping the job');
      return;
    }
    // Up to half the lease for a replica to acknowledge (a loaded replica took over 500 ms); the job needs far less than the rest.
    const replicas = await pool[1]!.get().wait(1, Math.round(env.ttlMs / 2));
    if (replicas < 1) {
      env.log(`the lock reached ${replicas} replicas: releasing it, skipping the job`);
      await redis.eval(COMPARE_AND_DELETE, 1, env.key, token);
      return;
    }
    for (let i = 0; i < steps(env); i++) {
      await env.effect('write', { value: i });
      await sleep(stepMs(env));
    }
    await redis.eval(COMPARE_AND_DELETE, 1, env.key, token);
  },
  close: async () => {
    for (const slot of pool) await slot.close();
  },
});
