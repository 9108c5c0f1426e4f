// GOOD for V313 (ORACLES.md row V313, pg_advisory_xact_lock in the work's transaction): the lock and every write of the work share one transaction; when the server ends it (idle_in_transaction_session_timeout = ttl, the lock's lease), the lock is gone and the next write fails before its effect.
import { defineTarget } from '../contract.ts';
import { sleep, stepMs, steps } from '../redis/job-params.ts';
import { pgPoolSlot } from './pool.ts';
import { ensureTable, WORK } from './schema.ts';
import { ok, TRY_XACT_LOCK } from './sql.ts';

const pool = pgPoolSlot();

export default defineTarget({
  description:
    'pg job: BEGIN, idle_in_transaction_session_timeout = ttl, pg_try_advisory_xact_lock, each write in that transaction, COMMIT',
  async connect(env) {
    await pool.connect(env);
    await ensureTable(pool.get(), WORK);
  },
  async job(env) {
    const client = await pool.get().connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      await client.query(`SET LOCAL idle_in_transaction_session_timeout = ${Math.round(env.ttlMs)}`);
      if (!ok(await client.query(TRY_XACT_LOCK, [env.key]))) {
        env.log('the lock is held elsewhere; skipping the job');
        await client.query('ROLLBACK');
        return;
      }
      for (let i = 0; i < steps(env); i++) {
        await client.query('INSERT INTO lock_oracles_work (holder, step) VALUES ($1, $2)', [env.holder, i]);
        await env.effect('write', { value: i });
        await sleep(stepMs(env));
      }
      await client.query('COMMIT');
    } catch (error) {
      broken = error as Error;
      throw error;
    } finally {
      client.release(broken);
    }
  },
  close: () => pool.close(),
});
