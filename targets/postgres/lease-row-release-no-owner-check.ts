// BAD for V310 (ORACLES.md row V310) on a Postgres lease row: lease-row-lock.ts whose release deletes the
// row by its key alone (DELETE … WHERE key = $1, no holder check), so a holder whose lease lapsed deletes
// the next holder's row.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../contract.ts';
import { takeLease } from './lease-row.ts';
import { leaseRowLockMembers } from './lease-row-lock-members.ts';
import { pgPoolSlot } from './pool.ts';

const pool = pgPoolSlot();

export default defineTarget({
  description: 'pg lease row: INSERT … ON CONFLICT … WHERE lease_until < now() per try; DELETE by key alone',
  ...leaseRowLockMembers(pool),
  async acquire(env) {
    const token = randomUUID();
    return (await takeLease(pool.get(), env.key, token, env.ttlMs)) ? { token } : null;
  },
  async release(env) {
    await pool.get().query('DELETE FROM lock_oracles_leases WHERE key = $1', [env.key]);
    return true;
  },
});
