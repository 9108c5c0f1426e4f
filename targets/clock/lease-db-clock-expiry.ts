// GOOD for V317 (ORACLES.md row V317): the bad twin with the expiry written on the clock that compares
// it, `lease_until = now() + ttl` in SQL, so the app's clock never enters the lease.
import { defineTarget } from '../contract.ts';
import { pgPoolSlot } from '../postgres/pool.ts';
import { dropLease, takeLease } from '../postgres/lease-row.ts';
import { ensureTable, LEASES } from '../postgres/schema.ts';

const pool = pgPoolSlot();

export default defineTarget({
  description: "pg lease row: lease_until = the database's now() + ttl, taken over when lease_until < now()",
  async connect(env) {
    await pool.connect(env);
    await ensureTable(pool.get(), LEASES);
  },
  async acquire(env) {
    return (await takeLease(pool.get(), env.key, env.holder, env.ttlMs)) ? { token: env.holder } : null;
  },
  async release(env) {
    await dropLease(pool.get(), env.key, env.holder);
  },
  close: () => pool.close(),
});
