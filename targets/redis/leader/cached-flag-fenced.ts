// GOOD for V315 (ORACLES.md row V315, fenced writes): the same cached isLeader flag as cached-flag.ts, but each term takes a fencing token (INCR) and every write carries it, so the resource rejects a deposed leader's writes.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { ioredisSlot } from '../ioredis/client.ts';
import { sleep, stepMs } from '../job-params.ts';
import { pollEvery, takeOrExtend } from './lease.ts';

const redis = ioredisSlot();

export default defineTarget({
  description:
    'ioredis leader: cached isLeader flag as in cached-flag.ts, plus a fencing token per term passed with every write',
  connect: (env) => redis.connect(env),
  async leader(env) {
    const token = randomUUID();
    let isLeader = false;
    let fence: number | undefined;
    const poll = () =>
      takeOrExtend(redis.get(), env, token).then(
        async (held) => {
          if (held && !isLeader) fence = await redis.get().incr(`${env.key}:fence`);
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
  close: () => redis.close(),
});
