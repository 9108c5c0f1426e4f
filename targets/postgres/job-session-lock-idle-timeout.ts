// BAD for V313 (ORACLES.md row V313, a session lock held across work longer than its lease): a session advisory lock on a checked-out client whose server session ends after ttl idle (idle_session_timeout: the lock's lease), while the work's writes go through the pool, so a holder paused past it keeps writing after the next holder took the lock.
import { defineTarget } from '../contract.ts';
import { sleep, stepMs, steps } from '../redis/job-params.ts';
import { pgPoolSlot } from './pool.ts';
import { ensureTable, WORK } from './schema.ts';
import { ok, TRY_LOCK, UNLOCK } from './sql.ts';

const pool = pgPoolSlot();

export default defineTarget({
  description:
    'pg job: pg_try_advisory_lock on a client with idle_session_timeout = ttl; the work writes through the pool; unlock',
  async connect(env) {
    await pool.connect(env);
    await ensureTable(pool.get(), WORK);
  },
  async job(env) {
    const client = await pool.get().connect();
    let broken: Error | undefined;
    try {
      await client.query(`SET idle_session_timeout = ${Math.round(env.ttlMs)}`);
      if (!ok(await client.query(TRY_LOCK, [env.key]))) {
        env.log('the lock is held elsewhere; skipping the job');
        await client.query('RESET idle_session_timeout');
        return;
      }
      for (let i = 0; i < steps(env); i++) {
        await pool.get().query('INSERT INTO lock_oracles_work (holder, step) VALUES ($1, $2)', [env.holder, i]);
        await env.effect('write', { value: i });
        await sleep(stepMs(env));
      }
      await client.query(UNLOCK, [env.key]);
      await client.query('RESET idle_session_timeout');
    } catch (error) {
      broken = error as Error;
      throw error;
    } finally {
      client.release(broken);
    }
  },
  close: () => pool.close(),
});
