/**
 * The SQL the Postgres reference targets share. The advisory lock key is a 32-bit hash of
 * `env.key` ($1); the harness counts every advisory lock in its scratch database, so a target of
 * yours may map its lock name to a key any way it likes.
 */

export const TRY_LOCK = 'SELECT pg_try_advisory_lock(hashtext($1)) AS ok';
export const UNLOCK = 'SELECT pg_advisory_unlock(hashtext($1)) AS ok';
export const TRY_XACT_LOCK = 'SELECT pg_try_advisory_xact_lock(hashtext($1)) AS ok';

/** The first row's `ok` column, as the boolean it is. */
export function ok(result: { rows: Array<{ ok?: unknown }> }): boolean {
  return result.rows[0]?.ok === true;
}
