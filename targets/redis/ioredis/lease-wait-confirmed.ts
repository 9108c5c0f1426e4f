// GOOD for V313 --variant failover and its explored failovers (a lock that must survive a failover): lease-wait-checked.ts, plus the lock read back after WAIT (GET is its token) before the job acts. A failover at the WAIT loses its reply; ioredis re-sends it on a fresh connection to the promoted node, which has no write of that connection to wait for and answers at once: only the read-back shows the lock is not there.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { sleep, stepMs, steps } from '../job-params.ts';
import { COMPARE_AND_DELETE } from '../lua.ts';
import { ioredisSlot } from './client.ts';

// A pool of two connections, as a pooled client has.
const pool = [ioredisSlot(), ioredisSlot()];

export default defineTarget({
  description:
    'ioredis job: SET NX PX checked, then WAIT 1 on the connection that SET the lock, result checked (fewer than 1 replica: release and skip), then GET checked to be its token; fixed TTL, writes, compare-and-delete',
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
    const replicas = await pool[0]!.get().wait(1, Math.round(env.ttlMs / 2));
    if (replicas < 1) {
      env.log(`the lock reached ${replicas} replicas: releasing it, skipping the job`);
      await redis.eval(COMPARE_AND_DELETE, 1, env.key, token);
      return;
    }
    if ((await redis.get(env.key)) !== token) {
      env.log("the lock is no longer this holder's after WAIT (a failover): skipping the job");
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
