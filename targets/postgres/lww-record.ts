/**
 * The V318 Postgres writers: one row of lock_oracles_records per key, written by an upsert whose
 * stamp expression ($3 is the writer's Date.now()) decides whether a write replaces the row.
 */
import { defineTarget, type Target } from '../contract.ts';
import { pgPoolSlot } from './pool.ts';
import { RECORDS, ensureTable } from './schema.ts';

/** A writer target whose upsert stamps the row with `stamp` (SQL over $3 and the stored r.ts). */
export function lwwRecordTarget(description: string, stamp: string): Target {
  const pool = pgPoolSlot();
  const upsert =
    `INSERT INTO lock_oracles_records AS r (key, value, ts) VALUES ($1, $2, $3) ` +
    `ON CONFLICT (key) DO UPDATE SET value = excluded.value, ts = ${stamp} WHERE ${stamp} > r.ts`;
  return defineTarget({
    description,
    async connect(env) {
      await pool.connect(env);
      await ensureTable(pool.get(), RECORDS);
    },
    async write(env, value) {
      await pool.get().query(upsert, [env.key, value, Date.now()]);
    },
    async read(env) {
      const result = await pool
        .get()
        .query<{ value: string }>('SELECT value FROM lock_oracles_records WHERE key = $1', [env.key]);
      return result.rows[0]?.value ?? null;
    },
    close: () => pool.close(),
  });
}
