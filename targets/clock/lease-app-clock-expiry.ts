// BAD for V317 (ORACLES.md row V317): the lease's expiry is computed on the app's clock,
// `expiresAt = Date.now() + ttl`, and compared on the database's, `lease_until < now()`. An app clock
// ahead of the database's makes a dead holder's lease outlive its TTL (a skipped takeover); one behind
// makes a live lease look expired at once (an early takeover, two holders).
import { defineTarget } from '../contract.ts';
import { pgPoolSlot } from '../postgres/pool.ts';
import { dropLease } from '../postgres/lease-row.ts';
import { ensureTable, LEASES } from '../postgres/schema.ts';

const pool = pgPoolSlot();

const TAKE_UNTIL = `INSERT INTO lock_oracles_leases AS l (key, holder, lease_until)
  VALUES ($1, $2, $3)
  ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
  WHERE l.lease_until < now()
  RETURNING holder`;

export default defineTarget({
  description:
    "pg lease row: lease_until = the app's Date.now() + ttl, taken over when lease_until < the database's now()",
  async connect(env) {
    await pool.connect(env);
    await ensureTable(pool.get(), LEASES);
  },
  async acquire(env) {
    const expiresAt = new Date(Date.now() + env.ttlMs);
    const taken = await pool.get().query(TAKE_UNTIL, [env.key, env.holder, expiresAt]);
    return taken.rowCount === 1 ? { token: env.holder } : null;
  },
  async release(env) {
    await dropLease(pool.get(), env.key, env.holder);
  },
  close: () => pool.close(),
});
