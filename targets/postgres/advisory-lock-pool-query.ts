// BAD for V314 (ORACLES.md row V314, session advisory lock through a pool or a transaction pooler): pg_try_advisory_lock and pg_advisory_unlock each run via pool.query, so they may run on different server sessions; the unlock then misses and the lock leaks (pool), or a second client lands on the lock's session and "takes" it too (PgBouncer transaction mode).
import { defineTarget } from '../contract.ts';
import { pgPoolSlot } from './pool.ts';
import { ok, TRY_LOCK, UNLOCK } from './sql.ts';

const pool = pgPoolSlot();

export default defineTarget({
  description: 'pg Pool: pg_try_advisory_lock / pg_advisory_unlock, each through pool.query',
  connect: (env) => pool.connect(env),
  async acquire(env) {
    return ok(await pool.get().query(TRY_LOCK, [env.key])) ? {} : null;
  },
  async release(env) {
    const unlocked = ok(await pool.get().query(UNLOCK, [env.key]));
    if (!unlocked) env.log('pg_advisory_unlock returned false: this session did not hold the lock');
    return unlocked;
  },
  async query(_env, sql) {
    await pool.get().query(sql);
  },
  close: () => pool.close(),
});
