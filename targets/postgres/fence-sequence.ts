/**
 * Fencing tokens from a Postgres sequence in the harness's fence store (a target declaring
 * `fenceStore: 'postgres'` gets its URL as env.fenceUrl): a counter that is not one of the lock's
 * Redis nodes, so a failover cannot lose a token and hand it out again. Shared by the Redis
 * references fenced that way (lease-fenced-sequence.ts, leader/cached-flag-fenced-sequence.ts).
 * Not a target itself.
 */
import pg from 'pg';
import type { TargetEnv } from '../contract.ts';
import { ensureTable } from './schema.ts';

export interface FenceSequence {
  connect(env: TargetEnv): Promise<void>;
  /** The next token, larger than every one handed out before. */
  next(): Promise<number>;
  close(): Promise<void>;
}

export function fenceSequence(): FenceSequence {
  let pool: pg.Pool | undefined;
  return {
    async connect(env) {
      if (!env.fenceUrl) throw new Error('no env.fenceUrl: the harness starts the fence store this target declares');
      pool = new pg.Pool({ connectionString: env.fenceUrl, max: 1 });
      pool.on('error', (error) => env.log(`pg fence pool: ${error.message}`));
      await ensureTable(pool, 'CREATE SEQUENCE IF NOT EXISTS lock_oracles_fence');
    },
    async next() {
      if (!pool) throw new Error('the fence sequence is not connected: the harness must call connect(env) first');
      return Number((await pool.query<{ n: string }>("SELECT nextval('lock_oracles_fence') AS n")).rows[0]!.n);
    },
    async close() {
      await pool?.end();
      pool = undefined;
    },
  };
}
