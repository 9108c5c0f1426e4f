// GOOD for V313 (ORACLES.md row V313, fencing token checked at the write): mutex-job.ts with a fencing token from INCR passed with every write, so the resource rejects a write that arrives after the next holder's.
import { defineTarget } from '../../contract.ts';
import { sleep, stepMs, steps } from '../job-params.ts';
import { ioredisSlot } from '../ioredis/client.ts';
import { jobMutex, mutexKey } from './mutex.ts';

const redis = ioredisSlot();

export default defineTarget({
  description:
    'redis-semaphore Mutex job: its own refresh timer, onLockLost checked before each write, fencing token from INCR on every write',
  connect: (env) => redis.connect(env),
  storeKey: mutexKey,
  async job(env) {
    let lost = false;
    const mutex = jobMutex(redis.get(), env, () => (lost = true));
    if (!(await mutex.tryAcquire())) {
      env.log('the mutex is held elsewhere; skipping the job');
      return;
    }
    try {
      const fence = await redis.get().incr(`${env.key}:fence`);
      for (let i = 0; i < steps(env); i++) {
        if (lost) return env.log('lost the mutex (onLockLost); stopping');
        await env.effect('write', { fence, value: i });
        await sleep(stepMs(env));
      }
    } finally {
      await mutex.release();
    }
  },
  close: () => redis.close(),
});
