/**
 * The job shape built from a target's own lock members: acquire, then before each write extend the
 * lease and stop when the store refuses, then release. For lock targets that also ship a job (V313).
 */
import type { Lease, Target, TargetEnv } from '../contract.ts';
import { sleep, stepMs, steps } from './job-params.ts';

type LockMembers = Required<Pick<Target, 'acquire' | 'release' | 'extend'>>;

export async function jobUnderLock(env: TargetEnv, lock: LockMembers): Promise<void> {
  const lease: Lease | null | false = await lock.acquire(env);
  if (!lease) {
    env.log('the lock is held elsewhere; skipping the job');
    return;
  }
  for (let i = 0; i < steps(env); i++) {
    if (!(await lock.extend(env, lease, env.ttlMs))) {
      env.log('lost the lease');
      break;
    }
    await env.effect('write', { value: i });
    await sleep(stepMs(env));
  }
  await lock.release(env, lease);
}
