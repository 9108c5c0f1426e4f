// GOOD for V315 --fault failover (a fence that survives a failover): cached-flag-fenced.ts with each term's fencing token from a Postgres sequence in the harness's fence store (fenceStore: 'postgres', env.fenceUrl) instead of INCR on the leader key's master, so the token cannot be lost with the master and handed out again: the resource rejects a deposed leader's writes.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { defineTarget } from '../../contract.ts';
import { ensureTable } from '../../postgres/schema.ts';
import { ioredisSlot } from '../ioredis/client.ts';
import { sleep, stepMs } from '../job-params.ts';
import { pollEvery, takeOrExtend } from './lease.ts';

const redis = ioredisSlot();
let fences: pg.Pool | undefined;

export default defineTarget({
  description:
    'ioredis leader: cached isLeader flag as in cached-flag.ts, plus a fencing token per term from a Postgres sequence (the fence store) passed with every write',
  fenceStore: 'postgres',
  async connect(env) {
    if (!env.fenceUrl) throw new Error('no env.fenceUrl: the harness starts the fence store this target declares');
    fences = new pg.Pool({ connectionString: env.fenceUrl, max: 1 });
    fences.on('error', (error) => env.log(`pg fence pool: ${error.message}`));
    await ensureTable(fences, 'CREATE SEQUENCE IF NOT EXISTS lock_oracles_fence');
    await redis.connect(env);
  },
  async leader(env) {
    const token = randomUUID();
    let isLeader = false;
    let fence: number | undefined;
    const nextFence = async () =>
      Number((await fences!.query<{ n: string }>("SELECT nextval('lock_oracles_fence') AS n")).rows[0]!.n);
    const poll = () =>
      takeOrExtend(redis.get(), env, token).then(
        async (held) => {
          if (held && !isLeader) fence = await nextFence();
          isLeader = held;
        },
        (error: Error) => env.log(`poll failed: ${error.message}`),
      );
    await poll();
    const timer = setInterval(poll, pollEvery(env));
    try {
      for (let i = 0; !env.signal.aborted; i++) {
        if (isLeader && fence !== undefined) await env.effect('write', { fence, value: i });
        await sleep(stepMs(env));
      }
    } finally {
      clearInterval(timer);
    }
  },
  close: async () => {
    await redis.close();
    await fences?.end();
    fences = undefined;
  },
});
