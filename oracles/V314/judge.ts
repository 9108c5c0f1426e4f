/**
 * V314's judgement, a pure function of what its scenario recorded: the pool scenario's
 * (judge-pool.ts) or the pooler scenario's (judge-pooler.ts), with every precondition either may
 * report declared here.
 */
import type { Judgement } from '../../src/core/judgement.ts';
import type { Recorded } from '../../src/oracle/definition.ts';
import { A_TOOK_LOCK, judgePool, QUERY_HELD_CONNECTION, RELEASE_WHILE_HELD } from './judge-pool.ts';
import { DENIAL_FROM_A, DISTINCT_CLIENTS, judgePooler } from './judge-pooler.ts';
import type { V314Observations } from './observations.ts';
import type { V314Params } from './params.ts';

export { A_TOOK_LOCK, DENIAL_FROM_A, DISTINCT_CLIENTS, QUERY_HELD_CONNECTION, RELEASE_WHILE_HELD };

export const V314_PRECONDITIONS = [
  {
    name: A_TOOK_LOCK,
    checks: "A's acquire returned a lease and pg_locks showed a granted advisory lock (both scenarios)",
  },
  {
    name: QUERY_HELD_CONNECTION,
    checks: "pool: A's parallel query was seen waiting at the server-side gate in one of A's sessions",
  },
  {
    name: RELEASE_WHILE_HELD,
    checks: "pool: A's release returned, without throwing, while the parallel query still waited at the gate",
  },
  { name: DISTINCT_CLIENTS, checks: "pooler: PgBouncer's SHOW CLIENTS listed client connections from both A and B" },
  {
    name: DENIAL_FROM_A,
    checks:
      "pooler, B denied: B's attempt ran on server sessions other than A's lock's, and B took the lock once A had released it",
  },
];

export function judgeV314({ observations, history, effects }: Recorded<V314Observations>, p: V314Params): Judgement {
  return observations.scenario === 'pool'
    ? judgePool({ observations, history, effects }, p)
    : judgePooler({ observations, history, effects }, p);
}
