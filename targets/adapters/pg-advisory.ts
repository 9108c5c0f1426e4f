/**
 * A ready binding for Postgres advisory locks through `pg` (node-postgres), in the three ways
 * projects take them:
 *
 *   export default pgAdvisoryLock(({ url }) => new pg.Pool({ connectionString: url, max: 2 }), { scope: 'session-via-pool' });
 *
 * - `session-via-pool`: `pg_try_advisory_lock` and `pg_advisory_unlock`, each a `pool.query`, so
 *   each may run on a different pooled connection (the lock stays on the first one);
 * - `session`: `pool.connect()` once, lock and unlock on that checked-out client, then release it;
 * - `transaction`: `pool.connect()`, `BEGIN`, `pg_try_advisory_xact_lock`; the writes run while
 *   the transaction is open; `COMMIT` releases.
 *
 * The lock key is `hashtext(env.key)`. Lock shape (V314, with `query` through the same pool), job
 * shape (V312, V313 on `--store postgres`) and leader shape (V315). An advisory lock has no TTL:
 * `env.ttlMs` is not used, the lock lasts as long as its session or transaction.
 */
import { defineTarget, type Lease, type Target, type TargetEnv } from '../contract.ts';
import { ok, TRY_LOCK, TRY_XACT_LOCK, UNLOCK } from '../postgres/sql.ts';
import { acquireRunRelease, jobAndLeader } from './from-with-lock.ts';

export type AdvisoryScope = 'session-via-pool' | 'session' | 'transaction';

export interface PgAdvisoryOptions {
  scope: AdvisoryScope;
}

type QueryResultLike = { rows: Array<{ ok?: unknown }> };

/** What the binding uses of a `pg` client checked out of the pool (structural: the project's own `pg` version). */
export interface PgClientLike {
  query(sql: string, values?: unknown[]): Promise<QueryResultLike>;
  release(error?: Error | boolean): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** What the binding uses of a `pg.Pool` (structural: the project's own `pg` version, no @types/pg needed here). */
export interface PgPoolLike {
  query(sql: string, values?: unknown[]): Promise<QueryResultLike>;
  connect(): Promise<PgClientLike>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'connect', listener: (client: PgClientLike) => void): unknown;
  end(): Promise<void>;
}

export function pgAdvisoryLock(
  connect: (env: TargetEnv) => PgPoolLike | Promise<PgPoolLike>,
  options: PgAdvisoryOptions,
): Target {
  let pool: PgPoolLike | undefined;
  const connected = (): PgPoolLike => {
    if (!pool) throw new Error('pgAdvisoryLock: the pool is not built: the harness must call connect(env) first');
    return pool;
  };

  /** Take the lock on a client checked out of the pool; the client stays checked out while held. */
  async function onClient(begin: boolean, sql: string, env: TargetEnv): Promise<Lease | null> {
    const client = await connected().connect();
    try {
      if (begin) await client.query('BEGIN');
      if (ok(await client.query(sql, [env.key]))) return { client };
      if (begin) await client.query('ROLLBACK');
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
    client.release();
    return null;
  }

  const scopes: Record<
    AdvisoryScope,
    { acquire(env: TargetEnv): Promise<Lease | null>; release(env: TargetEnv, lease: Lease): Promise<boolean> }
  > = {
    'session-via-pool': {
      acquire: async (env) => (ok(await connected().query(TRY_LOCK, [env.key])) ? {} : null),
      release: async (env) => ok(await connected().query(UNLOCK, [env.key])),
    },
    session: {
      acquire: (env) => onClient(false, TRY_LOCK, env),
      async release(env, lease) {
        const client = lease.client as PgClientLike;
        try {
          return ok(await client.query(UNLOCK, [env.key]));
        } finally {
          client.release();
        }
      },
    },
    transaction: {
      acquire: (env) => onClient(true, TRY_XACT_LOCK, env),
      async release(_env, lease) {
        const client = lease.client as PgClientLike;
        try {
          await client.query('COMMIT');
          return true;
        } finally {
          client.release();
        }
      },
    },
  };
  const { acquire, release } = scopes[options.scope];

  return defineTarget({
    description: `pg advisory lock, ${options.scope}`,
    async connect(env) {
      pool = await connect(env);
      pool.on('error', (error) => env.log(`pg pool (idle client): ${error.message}`));
      pool.on('connect', (client) => client.on('error', (error) => env.log(`pg client: ${error.message}`)));
    },
    acquire,
    release,
    async query(_env, sql) {
      await connected().query(sql);
    },
    ...jobAndLeader(acquireRunRelease(acquire, release)),
    async close() {
      await pool?.end();
      pool = undefined;
    },
  });
}
