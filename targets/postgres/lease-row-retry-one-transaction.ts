// BAD for V311 (ORACLES.md row V311) on a Postgres lease row: lease-row-retry-fresh-transaction.ts whose
// retries stay inside one transaction (each try a SAVEPOINT, rolled back to when the row is held, the
// transaction left open for the next try). now() is the transaction's start, frozen there: a row that
// was live when the first try began never looks lapsed, so the holder never takes over a dead holder's row.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { defineTarget } from '../contract.ts';
import { dropLease, takeLease } from './lease-row.ts';
import { leaseRowLockMembers } from './lease-row-lock-members.ts';
import { pgPoolSlot } from './pool.ts';

const pool = pgPoolSlot();
/** The client of the transaction the tries share, open from the first try until one takes the row. */
let tries: pg.PoolClient | undefined;

export default defineTarget({
  description: 'pg lease row: every try a SAVEPOINT of one open transaction (now() frozen); owner-checked release',
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
    await tries.query('ROLLBACK TO SAVEPOINT try_take');
    return null;
  },
  async release(env, lease) {
    await dropLease(pool.get(), env.key, String(lease.token));
    return true;
  },
});
