/**
 * A job under ZooKeeper's lock recipe (zk-lock.ts) as Curator's InterProcessMutex users write one:
 * take the lock, do the work, release. Nothing in the recipe tells the work that the session ended
 * (InterProcessMutex has no connection listener: Curator Tech Note 10), so a holder paused past its
 * session writes on after the next holder took over. `fenced` hands each write the lock node's
 * czxid, which grows with every node created, for the resource to refuse an older one;
 * `checksAcquire` false runs the work whether or not the lock was taken (V312's bug). Not a
 * reference by itself: recipe-job*.ts bind it.
 */
import type { TargetEnv } from '../contract.ts';
import { sleep, stepMs, steps } from '../redis/job-params.ts';
import { tryLock, unlock } from './zk-lock.ts';

export async function jobUnderRecipe(env: TargetEnv, fenced: boolean, checksAcquire = true): Promise<void> {
  const lease = await tryLock(env);
  if (!lease && checksAcquire) {
    env.log('the lock is held elsewhere; skipping the job');
    return;
  }
  for (let i = 0; i < steps(env); i++) {
    await env.effect('write', fenced && lease ? { value: i, fence: lease.fence } : { value: i });
    await sleep(stepMs(env));
  }
  if (lease) await unlock(env, lease);
}
