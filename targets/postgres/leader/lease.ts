/**
 * The leader lease every Postgres leader target uses: a lease row on the database's clock
 * (../lease-row.ts), extended while still ours and unexpired, or taken when free or expired.
 */
import type pg from 'pg';
import type { TargetEnv } from '../../contract.ts';
import { renewLease, takeLease } from '../lease-row.ts';

/** True when this replica holds the lease row now (extended or taken for another `ttlMs`). */
export async function takeOrRenew(pool: pg.Pool, env: TargetEnv, me: string): Promise<boolean> {
  return (await renewLease(pool, env.key, me, env.ttlMs)) || (await takeLease(pool, env.key, me, env.ttlMs));
}

/** How often a replica polls or renews: three times per lease. */
export const pollEvery = (env: TargetEnv): number => Math.max(1, Math.floor(env.ttlMs / 3));
