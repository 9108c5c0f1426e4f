// BAD for V313 (ORACLES.md row V313; found by --explore: a partition at a write): redis-semaphore 5.8.0 Mutex, refreshed on its own timer; the job checks onLockLost before each write but its writes carry no fencing token, so a write sent while A held the lock can arrive after B's.
import { defineTarget } from '../../contract.ts';
import { sleep, stepMs, steps } from '../job-params.ts';
import { ioredisSlot } from '../ioredis/client.ts';
import { jobMutex, mutexKey } from './mutex.ts';

const redis = ioredisSlot();

export default defineTarget({
  description: 'redis-semaphore Mutex job: its own refresh timer, onLockLost checked before each write, no fence',
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
      for (let i = 0; i < steps(env); i++) {
        if (lost) return env.log('lost the mutex (onLockLost); stopping');
        await env.effect('write', { value: i });
        await sleep(stepMs(env));
      }
    } finally {
      await mutex.release();
    }
  },
  close: () => redis.close(),
});
