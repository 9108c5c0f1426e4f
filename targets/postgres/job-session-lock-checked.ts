// GOOD for V313 --fault connection-killed (ORACLES.md row V313, the session checked before each write): the same session advisory lock on a pg.Client of its own, and before each write the job asks its session for its backend pid and stops unless it is the one that took the lock: a session the server ended (and its lock with it) is never written under.
import pg from 'pg';
import { defineTarget } from '../contract.ts';
import { sleep, stepMs, steps } from '../redis/job-params.ts';
import { ok, TRY_LOCK, UNLOCK } from './sql.ts';

let client: pg.Client | undefined;

function connection(): pg.Client {
  if (!client) throw new Error('the pg client is not connected: the harness must call connect(env) first');
  return client;
}

async function backendPid(): Promise<number> {
  const result = await connection().query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  return result.rows[0]!.pid;
}

export default defineTarget({
  description:
    'pg job: pg_try_advisory_lock on its own pg.Client; before each write its session checked (the same backend), then pg_advisory_unlock',
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
    const session = await backendPid();
    for (let i = 0; i < steps(env); i++) {
      if ((await backendPid()) !== session) throw new Error('the session holding the lock is gone; stopping');
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
