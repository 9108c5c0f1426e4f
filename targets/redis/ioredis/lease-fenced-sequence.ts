// GOOD for V313 --variant failover (a fence that survives a failover): lease-fenced.ts with its fencing token from a Postgres sequence in the harness's fence store (fenceStore: 'postgres', env.fenceUrl) instead of INCR on the lock's master, so the token cannot be lost with the master and handed out again: the resource rejects A's writes after B's.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { defineTarget } from '../../contract.ts';
import { ensureTable } from '../../postgres/schema.ts';
import { sleep, stepMs, steps } from '../job-params.ts';
import { COMPARE_AND_DELETE } from '../lua.ts';
import { ioredisSlot } from './client.ts';

const redis = ioredisSlot();
let fences: pg.Pool | undefined;

export default defineTarget({
  description:
    'ioredis job: SET NX PX checked, fencing token from a Postgres sequence (the fence store) passed with every write, no renewal',
  fenceStore: 'postgres',
  async connect(env) {
    if (!env.fenceUrl) throw new Error('no env.fenceUrl: the harness starts the fence store this target declares');
    fences = new pg.Pool({ connectionString: env.fenceUrl, max: 1 });
    fences.on('error', (error) => env.log(`pg fence pool: ${error.message}`));
    await ensureTable(fences, 'CREATE SEQUENCE IF NOT EXISTS lock_oracles_fence');
    await redis.connect(env);
  },
  async job(env) {
    const token = randomUUID();
    if ((await redis.get().set(env.key, token, 'PX', env.ttlMs, 'NX')) === null) {
      env.log('the lock is held elsewhere; skipping the job');
      return;
    }
    const fence = Number((await fences!.query<{ n: string }>("SELECT nextval('lock_oracles_fence') AS n")).rows[0]!.n);
    for (let i = 0; i < steps(env); i++) {
      await env.effect('write', { fence, value: i });
      await sleep(stepMs(env));
    }
    await redis.get().eval(COMPARE_AND_DELETE, 1, env.key, token);
  },
  close: async () => {
    await redis.close();
    await fences?.end();
    fences = undefined;
  },
});
