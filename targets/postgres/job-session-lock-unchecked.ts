// BAD for V313 --fault connection-killed (ORACLES.md row V313, a session lock whose session is gone): a session advisory lock on a pg.Client of the holder's own; the job's writes trust the lock taken once, so when the server ends its session (pg_terminate_backend) the lock is freed, the next holder takes it, and this one writes on.
import pg from 'pg';
import { defineTarget } from '../contract.ts';
import { sleep, stepMs, steps } from '../redis/job-params.ts';
import { ok, TRY_LOCK, UNLOCK } from './sql.ts';

let client: pg.Client | undefined;

function connection(): pg.Client {
  if (!client) throw new Error('the pg client is not connected: the harness must call connect(env) first');
  return client;
}

export default defineTarget({
  description: 'pg job: pg_try_advisory_lock on its own pg.Client, then the writes unchecked, then pg_advisory_unlock',
  async connect(env) {
    client = new pg.Client({ connectionString: env.url });
    // The server can end the session under it (a terminated backend): log it rather than crash the holder.
    client.on('error', (error) => env.log(`pg client: ${error.message}`));
    await client.connect();
  },
  async job(env) {
    if (!ok(await connection().query(TRY_LOCK, [env.key]))) {
      env.log('the lock is held elsewhere; skipping the job');
      return;
    }
    for (let i = 0; i < steps(env); i++) {
      await env.effect('write', { value: i });
      await sleep(stepMs(env));
    }
    await connection().query(UNLOCK, [env.key]);
  },
  async close() {
    await client?.end();
    client = undefined;
  },
});
