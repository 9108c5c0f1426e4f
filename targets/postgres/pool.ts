/**
 * One pg Pool per target module (each holder process imports its target once), built from the
 * URL the harness hands over. Its size is the oracle parameter `poolMax` when there is one
 * (V314 asks for 2), else 2.
 */
import pg from 'pg';
import type { TargetEnv } from '../contract.ts';

export interface PgPoolSlot {
  connect(env: TargetEnv): Promise<void>;
  close(): Promise<void>;
  /** The pool; throws when `connect` has not run. */
  get(): pg.Pool;
}

export function pgPoolSlot(): PgPoolSlot {
  let pool: pg.Pool | undefined;
  return {
    async connect(env) {
      pool = new pg.Pool({ connectionString: env.url, max: poolMax(env) });
      pool.on('error', (error) => env.log(`pg pool (idle client): ${error.message}`));
      // A checked-out client whose server session ends (a timeout, a killed backend) emits
      // 'error' outside any query; without a listener that would crash the holder.
      pool.on('connect', (client) => client.on('error', (error) => env.log(`pg client: ${error.message}`)));
    },
    async close() {
      await pool?.end();
      pool = undefined;
    },
    get() {
      if (!pool) throw new Error('the pg pool is not built: the harness must call connect(env) first');
      return pool;
    },
  };
}

function poolMax(env: TargetEnv): number {
  const raw = env.params.poolMax ?? 2;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`parameter poolMax must be an integer >= 1 (got ${String(raw)})`);
  return value;
}
