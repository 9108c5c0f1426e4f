// GOOD for V314 scenario (a) (ORACLES.md row V314, one checked-out client for lock, work and unlock): the lock and the unlock run on one pooled client held for the whole lease, so other pool traffic cannot take its session. BAD for scenario (b) in PgBouncer transaction mode: a client connection to the pooler does not pin a server session between transactions. GOOD for (b) in session mode.
import type pg from 'pg';
import { defineTarget } from '../contract.ts';
import { pgPoolSlot } from './pool.ts';
import { ok, TRY_LOCK, UNLOCK } from './sql.ts';

const pool = pgPoolSlot();

export default defineTarget({
  description:
    'pg Pool: pool.connect() once, pg_try_advisory_lock and pg_advisory_unlock on that client, released after the unlock',
  connect: (env) => pool.connect(env),
  async acquire(env) {
    const client = await pool.get().connect();
    try {
      if (ok(await client.query(TRY_LOCK, [env.key]))) return { client };
    } catch (error) {
      client.release();
      throw error;
    }
    client.release();
    return null;
  },
  async release(env, lease) {
    const client = lease.client as pg.PoolClient;
    try {
      return ok(await client.query(UNLOCK, [env.key]));
    } finally {
      client.release();
    }
  },
  async query(_env, sql) {
    await pool.get().query(sql);
  },
  close: () => pool.close(),
});
