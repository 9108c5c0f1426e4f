/**
 * Tables the Postgres targets use, created on connect (serialised: two holders connect at once).
 */
import type pg from 'pg';

/** A lease row per lock name: who holds it and until when (on the database's clock). */
export const LEASES =
  'CREATE TABLE IF NOT EXISTS lock_oracles_leases (key text PRIMARY KEY, holder text NOT NULL, lease_until timestamptz NOT NULL)';
/**
 * A claim row per lock name whose release clears it in place, as queue tables do: holder and
 * lease_until set to NULL (the app's "free") instead of the row deleted.
 */
export const CLAIMS =
  'CREATE TABLE IF NOT EXISTS lock_oracles_claims (key text PRIMARY KEY, holder text, lease_until timestamptz)';
/** One last-write-wins record per key: its value and the stamp that ordered it (V318). */
export const RECORDS =
  'CREATE TABLE IF NOT EXISTS lock_oracles_records (key text PRIMARY KEY, value text NOT NULL, ts bigint NOT NULL)';
/** The job's own database writes (the work the lock protects). */
export const WORK =
  'CREATE TABLE IF NOT EXISTS lock_oracles_work (holder text NOT NULL, step int NOT NULL, at timestamptz NOT NULL DEFAULT now())';

export async function ensureTable(pool: pg.Pool, ddl: string): Promise<void> {
  // Two holders connect at once; one transaction-scoped advisory lock makes their CREATE TABLE IF
  // NOT EXISTS run one after the other (concurrent ones can collide in the catalog).
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(731000001)');
    await client.query(ddl);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
