// BAD for V312 (ORACLES.md row V312, acquire result ignored): pg_try_advisory_lock's result is discarded, so the job writes while another holder has the lock.
import { defineTarget } from '../contract.ts';
import { sleep, stepMs, steps } from '../redis/job-params.ts';
import { pgPoolSlot } from './pool.ts';
import { TRY_LOCK, UNLOCK } from './sql.ts';

const pool = pgPoolSlot();

export default defineTarget({
  description:
    'pg job: pg_try_advisory_lock on a checked-out client, result ignored, then the writes, then pg_advisory_unlock',
  connect: (env) => pool.connect(env),
  async job(env) {
    const client = await pool.get().connect();
    try {
      await client.query(TRY_LOCK, [env.key]);
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
