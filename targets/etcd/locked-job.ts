/**
 * The job shape on npm etcd3's Lock: take the lock (a lease of the run's TTL, kept alive by the
 * client), read the lock key's create revision (the fencing token Jepsen recommends: etcd's
 * revisions only grow, and a new holder's key is created after the old one's went), run the work,
 * release. A lock held elsewhere skips the job, as etcd3's own `lock.do()` callers see it throw.
 */
import { EtcdLockFailedError, type Etcd3 } from 'etcd3';
import type { TargetEnv } from '../contract.ts';
import { ttlSeconds } from './client.ts';

export async function lockedJob(env: TargetEnv, client: Etcd3, work: (fence: number) => Promise<void>): Promise<void> {
  const lock = client.lock(env.key).ttl(ttlSeconds(env));
  try {
    await lock.acquire();
  } catch (error) {
    if (!(error instanceof EtcdLockFailedError)) throw error;
    env.log('the lock is held elsewhere; skipping the job');
    return;
  }
  const [key] = (await client.get(env.key).exec()).kvs;
  try {
    await work(Number(key?.create_revision ?? 0));
  } finally {
    await lock.release();
  }
}
