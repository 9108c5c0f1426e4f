/**
 * The leader key every leader target uses (ioredis): take it when free (`SET k tok PX ttl NX`), or
 * extend it while it still holds our token (compare-and-pexpire). The twins differ only in what
 * they do with the answer.
 */
import type { Redis } from 'ioredis';
import type { TargetEnv } from '../../contract.ts';
import { COMPARE_AND_PEXPIRE } from '../lua.ts';

/** True when this replica holds the leader key now (taken or extended for another `ttlMs`). */
export async function takeOrExtend(redis: Redis, env: TargetEnv, token: string): Promise<boolean> {
  if ((await redis.set(env.key, token, 'PX', env.ttlMs, 'NX')) === 'OK') return true;
  return (await redis.eval(COMPARE_AND_PEXPIRE, 1, env.key, token, env.ttlMs)) === 1;
}

/** How often a replica polls or renews: three times per lease. */
export const pollEvery = (env: TargetEnv): number => Math.max(1, Math.floor(env.ttlMs / 3));
