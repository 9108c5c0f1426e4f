// GOOD for V315 --fault failover (a fence that survives a failover): cached-flag-fenced.ts with each term's fencing token from a Postgres sequence in the harness's fence store (fenceStore: 'postgres', env.fenceUrl) instead of INCR on the leader key's master, so the token cannot be lost with the master and handed out again: the resource rejects a deposed leader's writes.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { fenceSequence } from '../../postgres/fence-sequence.ts';
import { ioredisSlot } from '../ioredis/client.ts';
import { sleep, stepMs } from '../job-params.ts';
import { pollEvery, takeOrExtend } from './lease.ts';

const redis = ioredisSlot();
const fences = fenceSequence();

export default defineTarget({
  description:
    'ioredis leader: cached isLeader flag as in cached-flag.ts, plus a fencing token per term from a Postgres sequence (the fence store) passed with every write',
  fenceStore: 'postgres',
  async connect(env) {
    await fences.connect(env);
    await redis.connect(env);
  },
  async leader(env) {
    const token = randomUUID();
    let isLeader = false;
    let fence: number | undefined;
    const poll = () =>
      takeOrExtend(redis.get(), env, token).then(
        async (held) => {
          if (held && !isLeader) fence = await fences.next();
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
    await fences.close();
  },
});
