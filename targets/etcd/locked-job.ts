/**
 * The job shape on npm etcd3's Lock: take the lock (a lease of the run's TTL, kept alive by the
 * client), read the lock key's create revision (the fencing token Jepsen recommends: etcd's
 * revisions only grow, and a new holder's key is created after the old one's went), run the work,
 * release. A lock held elsewhere skips the job, as etcd3's own `lock.do()` callers see it throw;
 * `checksAcquire` false runs the work whether or not the lock was taken (V312's bug: the
 * EtcdLockFailedError caught and logged, the job run anyway).
 */
import { EtcdLockFailedError, type Etcd3 } from 'etcd3';
import type { TargetEnv } from '../contract.ts';
import { sleep, stepMs, steps } from '../redis/job-params.ts';
import { ttlSeconds } from './client.ts';

export async function lockedJob(
  env: TargetEnv,
  client: Etcd3,
  work: (fence: number) => Promise<void>,
  checksAcquire = true,
): Promise<void> {
  const lock = client.lock(env.key).ttl(ttlSeconds(env));
  let taken = true;
  try {
    await lock.acquire();
  } catch (error) {
    if (!(error instanceof EtcdLockFailedError)) throw error;
    env.log('the lock is held elsewhere; skipping the job');
    if (checksAcquire) return;
    taken = false;
  }
  const [key] = taken ? (await client.get(env.key).exec()).kvs : [];
  try {
    await work(Number(key?.create_revision ?? 0));
  } finally {
    if (taken) await lock.release();
  }
}

/** The reference jobs' work: env.params.steps unfenced writes, stepMs apart. */
export const writeSteps = (env: TargetEnv) => async (): Promise<void> => {
  for (let i = 0; i < steps(env); i++) {
    await env.effect('write', { value: i });
    await sleep(stepMs(env));
  }
};
