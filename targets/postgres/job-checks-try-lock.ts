// GOOD for V312 (ORACLES.md row V312, result checked before the first effect): the job returns without writing when pg_try_advisory_lock says false.
import { defineTarget } from '../contract.ts';
import { sleep, stepMs, steps } from '../redis/job-params.ts';
import { pgPoolSlot } from './pool.ts';
import { ok, TRY_LOCK, UNLOCK } from './sql.ts';

const pool = pgPoolSlot();

export default defineTarget({
  description:
    'pg job: pg_try_advisory_lock on a checked-out client, checked, then the writes, then pg_advisory_unlock',
  connect: (env) => pool.connect(env),
  async job(env) {
    const client = await pool.get().connect();
    try {
      if (!ok(await client.query(TRY_LOCK, [env.key]))) {
        env.log('the lock is held elsewhere; skipping the job');
        return;
      }
      for (let i = 0; i < steps(env); i++) {
        await env.effect('write', { value: i });
        await sleep(stepMs(env));
      }
      await client.query(UNLOCK, [env.key]);
    } finally {
      client.release();
    }
  },
  close: () => pool.close(),
});
