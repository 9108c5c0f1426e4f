// GOOD for V314 (ORACLES.md row V314, pg_advisory_xact_lock inside the work's transaction): the lock belongs to a transaction on one checked-out client and ends with it, so it cannot outlive the work or be shared by another client, through a pool or through PgBouncer in transaction mode.
import type pg from 'pg';
import { defineTarget } from '../contract.ts';
import { pgPoolSlot } from './pool.ts';
import { ok, TRY_XACT_LOCK } from './sql.ts';

const pool = pgPoolSlot();

export default defineTarget({
  description:
    'pg Pool: pool.connect(), BEGIN, pg_try_advisory_xact_lock; the work would run in this transaction; COMMIT releases',
  connect: (env) => pool.connect(env),
  async acquire(env) {
    const client = await pool.get().connect();
    try {
      await client.query('BEGIN');
      if (ok(await client.query(TRY_XACT_LOCK, [env.key]))) return { client };
      await client.query('ROLLBACK');
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
    client.release();
    return null;
  },
  async release(_env, lease) {
    const client = lease.client as pg.PoolClient;
    try {
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  },
  async query(_env, sql) {
    await pool.get().query(sql);
  },
  close: () => pool.close(),
});
