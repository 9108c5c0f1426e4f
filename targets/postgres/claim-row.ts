/**
 * A claim row on the database's own clock whose release clears the row in place, as queue tables
 * do (`holder` and `lease_until` set to NULL, the app's "free") instead of deleting it: taken when
 * absent, cleared or lapsed; renewed only while still ours and unexpired; cleared by its release,
 * with an owner check or without (what claim-row-clear-checked.ts and claim-row-clear-unchecked.ts
 * differ by). Declared with its owner column, so the harness reads a cleared row as free. Not a
 * target itself.
 */
import { randomUUID } from 'node:crypto';
import type { LeaseRow, Target, TargetEnv } from '../contract.ts';
import { pgPoolSlot } from './pool.ts';
import { CLAIMS, ensureTable } from './schema.ts';

const claimRow = (env: TargetEnv): LeaseRow => ({
  table: 'lock_oracles_claims',
  keyColumn: 'key',
  key: env.key,
  expiresColumn: 'lease_until',
  ownerColumn: 'holder',
});

const TAKE = `INSERT INTO lock_oracles_claims AS c (key, holder, lease_until)
  VALUES ($1, $2, now() + $3 * interval '1 millisecond')
  ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
  WHERE c.holder IS NULL OR c.lease_until IS NULL OR c.lease_until < now()
  RETURNING holder`;
const RENEW = `UPDATE lock_oracles_claims SET lease_until = now() + $3 * interval '1 millisecond'
  WHERE key = $1 AND holder = $2 AND lease_until >= now()`;
const CLEAR = 'UPDATE lock_oracles_claims SET holder = NULL, lease_until = NULL WHERE key = $1';
const CLEAR_IF_OURS = `${CLEAR} AND holder = $2`;

/** The claim-row lock; `releaseChecksOwner`: its release clears the row only while it is still the releaser's. */
export function claimRowLock(options: { releaseChecksOwner: boolean }): Target {
  const pool = pgPoolSlot();
  return {
    description: `pg claim row: INSERT … ON CONFLICT … WHERE holder IS NULL OR lease_until IS NULL OR lease_until < now(); release sets holder and lease_until to NULL${options.releaseChecksOwner ? ' only while the holder is ours' : ' by its key alone'}`,
    storeKey: claimRow,
    async connect(env) {
      await pool.connect(env);
      await ensureTable(pool.get(), CLAIMS);
    },
    async acquire(env) {
      const token = randomUUID();
      return (await pool.get().query(TAKE, [env.key, token, env.ttlMs])).rowCount === 1 ? { token } : null;
    },
    async release(env, lease) {
      const cleared = options.releaseChecksOwner
        ? await pool.get().query(CLEAR_IF_OURS, [env.key, String(lease.token)])
        : await pool.get().query(CLEAR, [env.key]);
      return cleared.rowCount === 1;
    },
    async extend(env, lease, ttlMs) {
      return (await pool.get().query(RENEW, [env.key, String(lease.token), ttlMs])).rowCount === 1;
    },
    close: () => pool.close(),
  };
}
