/**
 * Tables the Postgres job targets use, created on connect. Two holders connect at once, and two
 * concurrent CREATE TABLE IF NOT EXISTS can still collide in the catalog; the loser's error is
 * harmless (the table exists), so it is ignored.
 */
import type pg from 'pg';

/** A lease row per lock name: who holds it and until when (on the database's clock). */
export const LEASES = 'CREATE TABLE IF NOT EXISTS lock_oracles_leases (key text PRIMARY KEY, holder text NOT NULL, lease_until timestamptz NOT NULL)';
/** The job's own database writes (the work the lock protects). */
export const WORK = 'CREATE TABLE IF NOT EXISTS lock_oracles_work (holder text NOT NULL, step int NOT NULL, at timestamptz NOT NULL DEFAULT now())';

export async function ensureTable(pool: pg.Pool, ddl: string): Promise<void> {
  try {
    await pool.query(ddl);
  } catch (error) {
    const code = (error as { code?: string }).code;
    // 23505: unique violation in pg_type; 42P07: duplicate table. Both mean another holder won.
    if (code !== '23505' && code !== '42P07') throw error;
  }
}
