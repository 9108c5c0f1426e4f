/**
 * A worker running jobs under redis-semaphore Mutexes, with a graceful shutdown: `close` (also run
 * on SIGTERM) stops the mutexes' refresh timers and waits for the running jobs, in the order the
 * target chooses; the jobs release their own mutex when they end. Closing twice closes once.
 */
import type { Mutex } from 'redis-semaphore';
import type { TargetEnv } from '../../contract.ts';
import { sleep, stepMs, steps } from '../job-params.ts';
import { ioredisSlot } from '../ioredis/client.ts';
import { jobMutex } from './mutex.ts';

export function mutexWorker(order: 'stop-refresh-first' | 'jobs-first') {
  const redis = ioredisSlot();
  const held = new Set<Mutex>();
  const running = new Set<Promise<void>>();
  let closing: Promise<void> | undefined;

  async function shutdown(): Promise<void> {
    const stopRefresh = () => held.forEach((mutex) => mutex.stopRefresh());
    if (order === 'stop-refresh-first') stopRefresh();
    await Promise.allSettled(running);
    if (order === 'jobs-first') stopRefresh();
    await redis.close();
  }

  async function work(env: TargetEnv, lost: () => boolean): Promise<void> {
    for (let i = 0; i < steps(env); i++) {
      if (lost()) return env.log('lost the mutex (onLockLost); stopping');
      await env.effect('write', { value: i });
      await sleep(stepMs(env));
    }
  }

  return {
    async connect(env: TargetEnv) {
      await redis.connect(env);
      // A deploy stops the worker with SIGTERM: shut down gracefully (the harness ends the process after).
      process.once('SIGTERM', () => void (closing ??= shutdown()));
    },
    async job(env: TargetEnv) {
      let lost = false;
      // A quarter of the TTL, not the library's 0.8: on a loaded machine a refresh 60 ms late (TTL
      // 300 ms) loses the lock by itself, and this worker is about its shutdown, not that margin.
      const mutex = jobMutex(redis.get(), env, () => (lost = true), Math.round(env.ttlMs / 4));
      if (!(await mutex.tryAcquire())) return env.log('the mutex is held elsewhere; skipping the job');
      held.add(mutex);
      const job = work(env, () => lost);
      running.add(job);
      try {
        await job;
      } finally {
        running.delete(job);
        held.delete(mutex);
        await mutex.release();
      }
    },
    close: () => (closing ??= shutdown()),
  };
}
