// BAD for V315 (ORACLES.md row V315, a leader key taken once then a loop of effects): the replica waits for the leader key, keeps it alive from a timer whose answer it ignores, and then writes in a loop that never checks again.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { ioredisSlot } from '../ioredis/client.ts';
import { sleep, stepMs } from '../job-params.ts';
import { COMPARE_AND_PEXPIRE } from '../lua.ts';
import { pollEvery } from './lease.ts';

const redis = ioredisSlot();

export default defineTarget({
  description:
    'ioredis leader: SET NX PX until taken, a keep-alive timer (compare-and-pexpire, result ignored), then writes in a loop',
  connect: (env) => redis.connect(env),
  async leader(env) {
    const token = randomUUID();
    while ((await redis.get().set(env.key, token, 'PX', env.ttlMs, 'NX')) !== 'OK') {
      if (env.signal.aborted) return;
      await sleep(pollEvery(env));
    }
    const keepAlive = setInterval(() => {
      redis
        .get()
        .eval(COMPARE_AND_PEXPIRE, 1, env.key, token, env.ttlMs)
        .catch((error: Error) => env.log(`keep-alive failed: ${error.message}`));
    }, pollEvery(env));
    try {
      for (let i = 0; !env.signal.aborted; i++) {
        await env.effect('write', { value: i });
        await sleep(stepMs(env));
      }
    } finally {
      clearInterval(keepAlive);
    }
  },
  close: () => redis.close(),
});
