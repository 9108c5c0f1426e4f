/**
 * A lease row on the database's own clock: taken when absent or expired, renewed only while still
 * ours and unexpired, deleted only by its holder. `ttlMs` is the lease.
 */
import type pg from 'pg';
import type { LeaseRow, Target, TargetEnv } from '../contract.ts';
import type { PgPoolSlot } from './pool.ts';
import { ensureTable, LEASES } from './schema.ts';

/** Where the lease lives, for the harness to read its time left (a target's storeKey). */
export const leaseRow = (env: TargetEnv): LeaseRow => ({
  table: 'lock_oracles_leases',
  keyColumn: 'key',
  key: env.key,
  expiresColumn: 'lease_until',
  // Whose lease it is: the harness tells B's row from a row A took again once B's lapsed.
  ownerColumn: 'holder',
});

/**
 * The members every target built on this lease row shares: where the lease lives (storeKey),
 * connecting its pool and creating the lease table, and closing the pool.
 */
export function leaseRowMembers(pool: PgPoolSlot): Required<Pick<Target, 'storeKey' | 'connect' | 'close'>> {
  return {
    storeKey: leaseRow,
    async connect(env) {
      await pool.connect(env);
      await ensureTable(pool.get(), LEASES);
    },
    close: () => pool.close(),
  };
}

const TAKE = `INSERT INTO lock_oracles_leases AS l (key, holder, lease_until)
  VALUES ($1, $2, now() + $3 * interval '1 millisecond')
  ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
  WHERE l.lease_until < now()
  RETURNING holder`;
const RENEW = `UPDATE lock_oracles_leases SET lease_until = now() + $3 * interval '1 millisecond'
  WHERE key = $1 AND holder = $2 AND lease_until >= now()
  RETURNING holder`;
const DROP = 'DELETE FROM lock_oracles_leases WHERE key = $1 AND holder = $2';

/** True when the row was free or lapsed by now() (the transaction's start) and is now `holder`'s for `ttlMs`. */
export async function takeLease(
  pool: pg.Pool | pg.PoolClient,
  key: string,
  holder: string,
  ttlMs: number,
): Promise<boolean> {
  return (await pool.query(TAKE, [key, holder, ttlMs])).rowCount === 1;
}

/** True when the lease was still ours and is now extended by `ttlMs`. */
export async function renewLease(pool: pg.Pool, key: string, holder: string, ttlMs: number): Promise<boolean> {
  return (await pool.query(RENEW, [key, holder, ttlMs])).rowCount === 1;
}

export async function dropLease(pool: pg.Pool, key: string, holder: string): Promise<void> {
  await pool.query(DROP, [key, holder]);
}
