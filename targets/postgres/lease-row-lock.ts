// GOOD for V310 and V311 (ORACLES.md rows V310, V311) on a Postgres lease row (key, holder, lease_until):
// taken with INSERT … ON CONFLICT … WHERE lease_until < now() in a statement of its own (its own
// transaction, so now() is the database's clock at each try), released with DELETE … WHERE key AND
// holder = the releaser's token.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../contract.ts';
import { dropLease, takeLease } from './lease-row.ts';
import { leaseRowLockMembers } from './lease-row-lock-members.ts';
import { pgPoolSlot } from './pool.ts';

const pool = pgPoolSlot();

export default defineTarget({
  description: 'pg lease row: INSERT … ON CONFLICT … WHERE lease_until < now() per try; owner-checked DELETE release',
  ...leaseRowLockMembers(pool),
  async acquire(env) {
    const token = randomUUID();
    return (await takeLease(pool.get(), env.key, token, env.ttlMs)) ? { token } : null;
  },
  async release(env, lease) {
    await dropLease(pool.get(), env.key, String(lease.token));
    return true;
  },
});
