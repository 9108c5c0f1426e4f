// GOOD for V311 (ORACLES.md row V311) on a Postgres lease row: lease-row-retry-one-transaction.ts whose
// try, when the row is held, ends its transaction (ROLLBACK) instead of rolling back to its savepoint, so
// the next try begins a fresh transaction and its now() is the database's clock then: a dead holder's
// row is taken over once its lease_until has passed.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { defineTarget } from '../contract.ts';
import { dropLease, takeLease } from './lease-row.ts';
import { leaseRowLockMembers } from './lease-row-lock-members.ts';
import { pgPoolSlot } from './pool.ts';

const pool = pgPoolSlot();
/** The client of the current try's transaction. */
let tries: pg.PoolClient | undefined;

export default defineTarget({
  description: 'pg lease row: every try its own transaction (ROLLBACK when the row is held); owner-checked release',
  ...leaseRowLockMembers(pool),
  async acquire(env) {
    if (!tries) {
      tries = await pool.get().connect();
      await tries.query('BEGIN');
    }
    const token = randomUUID();
    await tries.query('SAVEPOINT try_take');
    if (await takeLease(tries, env.key, token, env.ttlMs)) {
      await tries.query('COMMIT');
      tries.release();
      tries = undefined;
      return { token };
    }
    await tries.query('ROLLBACK');
    tries.release();
    tries = undefined;
    return null;
  },
  async release(env, lease) {
    await dropLease(pool.get(), env.key, String(lease.token));
    return true;
  },
});
