// GOOD for V311 --store postgres (ORACLES.md row V311, a session advisory lock): pg_try_advisory_lock on a connection the holder owns (one pg.Client, opened and checked with SELECT 1 in connect(env)), so the lock lives exactly as long as the holder's own server session: killed, the holder's socket closes, its backend ends and the lock is free. The same target through a session-pooling PgBouncer is GOOD with its default server_reset_query (DISCARD ALL drops the leaving client's advisory locks) and BAD with an empty one (--store pgbouncer --pooler-reset none): the server session, and the lock on it, outlive the holder in the pooler's pool.
import pg from 'pg';
import { defineTarget } from '../contract.ts';
import { ok, TRY_LOCK, UNLOCK } from './sql.ts';

let client: pg.Client | undefined;

function connection(): pg.Client {
  if (!client) throw new Error('the pg client is not connected: the harness must call connect(env) first');
  return client;
}

export default defineTarget({
  description: 'pg: one pg.Client of its own, pg_try_advisory_lock and pg_advisory_unlock on it (a session lock)',
  async connect(env) {
    client = new pg.Client({ connectionString: env.url });
    // The server can end the session under it (a killed backend): log it rather than crash the holder.
    client.on('error', (error) => env.log(`pg client: ${error.message}`));
    await client.connect();
    // A start-up check, as services do: it also makes a session-pooling PgBouncer link this client to
    // a server session now, for as long as the client stays connected (it links one at a first query).
    await client.query('SELECT 1');
  },
  async acquire(env) {
    return ok(await connection().query(TRY_LOCK, [env.key])) ? { token: `session lock ${env.key}` } : null;
  },
  async release(env) {
    return ok(await connection().query(UNLOCK, [env.key]));
  },
  async close() {
    await client?.end();
    client = undefined;
  },
});
