/**
 * The lock members the lease-row lock targets (V310, V311) share: where the row lives with its owner
 * column (storeKey), connecting the pool and creating the table, an owner-checked renewal (extend)
 * and closing the pool. Each target adds its own acquire and release: the guard its twin lacks.
 */
import type { LeaseRow, Target, TargetEnv } from '../contract.ts';
import { leaseRow, leaseRowMembers, renewLease } from './lease-row.ts';
import type { PgPoolSlot } from './pool.ts';

/** The lease row with its holder column, so the harness reads whose the row is. */
export const ownedLeaseRow = (env: TargetEnv): LeaseRow => ({ ...leaseRow(env), ownerColumn: 'holder' });

export function leaseRowLockMembers(
  pool: PgPoolSlot,
): Required<Pick<Target, 'storeKey' | 'connect' | 'close' | 'extend'>> {
  return {
    ...leaseRowMembers(pool),
    storeKey: ownedLeaseRow,
    extend: (env, lease, ttlMs) => renewLease(pool.get(), env.key, String(lease.token), ttlMs),
  };
}
