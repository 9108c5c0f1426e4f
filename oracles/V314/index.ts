/**
 * V314 — a session advisory lock taken through a pool or a transaction pooler.
 *
 * Scenario "pool" (a): A's pool (max 2) takes the lock; a parallel query from the same pool is held
 * on the server (it occupies a pooled connection); A releases meanwhile. Property: pg_locks shows 0
 * advisory locks after the unlock. Preconditions: A's lock was in pg_locks; the parallel query was
 * seen waiting in one of A's sessions; A's release returned while it still waited.
 * Scenario "pooler" (b): A and B are clients of one PgBouncer (transaction mode by default); A takes
 * the lock; B tries while A holds it. Property: B is denied. Preconditions: A's lock was in pg_locks;
 * A and B were two distinct pooler clients; a denial counts only if B's attempt ran on another
 * server session than A's lock and B took the lock once A released it.
 * Window: pool, while the parallel query still waits at the gate (checked after the release
 * returned); pooler, while A's lock is granted in pg_locks (B's try is judged only on a server
 * session other than A's lock's). No lease expires: a session lock lives as long as its session.
 * Throws: acquire() throwing is ERROR; so is query() throwing before it reached the server; a
 * release that throws while its pool is occupied is behaviour the scenario provoked (INCONCLUSIVE).
 * Files: pool.ts and pooler.ts play the scenarios and record their observations (observations.ts);
 * judge.ts judges them, a pure function (judge-pool.ts, judge-pooler.ts); params.ts declares the
 * parameters.
 */
import { defineOracle } from '../../src/oracle/definition.ts';
import { judgeV314, V314_PRECONDITIONS } from './judge.ts';
import type { V314Observations } from './observations.ts';
import { v314Params } from './params.ts';
import { playPool } from './pool.ts';
import { playPooler } from './pooler.ts';

export default defineOracle({
  id: 'V314',
  title: 'Session advisory lock through a pool or a transaction pooler',
  class: 'LK-6 session advisory lock through a pool or a transaction pooler',
  scenario:
    'pool: A locks through its pool (max 2), then releases while a parallel query from the same pool is held on the server; pooler: A and B lock through one PgBouncer (transaction mode), B while A holds.',
  property:
    'pool: pg_locks shows 0 advisory locks after the unlock; pooler: the second holder is denied while the first holds.',
  stores: ['postgres', 'pgbouncer'],
  holders: ['A', 'B'],
  params: v314Params,
  preconditions: V314_PRECONDITIONS,
  needs: (p) => (p.scenario === 'pool' ? ['acquire', 'release', 'query'] : ['acquire', 'release']),
  // The pooler scenario always runs through a scratch PgBouncer (in front of its own Postgres); its
  // pool mode is --pool-mode (a store with no pooler reads none).
  storeRequest: (p, kind) => ({
    kind: p.scenario === 'pooler' ? 'pgbouncer' : kind,
    poolMode: p.poolMode as 'transaction' | 'session',
  }),
  references: [
    { target: 'targets/postgres/advisory-lock-pool-query.ts', expect: 'FAIL' },
    { target: 'targets/postgres/advisory-lock-checked-out-client.ts', expect: 'PASS' },
    { target: 'targets/postgres/advisory-xact-lock.ts', expect: 'PASS' },
    {
      target: 'targets/postgres/advisory-lock-pool-query.ts',
      expect: 'FAIL',
      store: 'pgbouncer',
      params: { scenario: 'pooler' },
    },
    {
      target: 'targets/postgres/advisory-lock-checked-out-client.ts',
      expect: 'FAIL',
      store: 'pgbouncer',
      params: { scenario: 'pooler' },
    },
    {
      target: 'targets/postgres/advisory-xact-lock.ts',
      expect: 'PASS',
      store: 'pgbouncer',
      params: { scenario: 'pooler' },
    },
    {
      target: 'targets/postgres/advisory-lock-checked-out-client.ts',
      expect: 'PASS',
      store: 'pgbouncer',
      params: { scenario: 'pooler', poolMode: 'session' },
    },
    // Java, pgjdbc 42.5 (Debian's libpostgresql-jdbc-java; sdk/java/LockOracles.java).
    { target: 'targets/java/AdvisoryLockPoolQuery.java', expect: 'FAIL' },
    { target: 'targets/java/AdvisoryLockDedicatedConnection.java', expect: 'PASS' },
    // Python, psycopg 3.1 with psycopg_pool 3.1 (Debian's python3-psycopg, python3-psycopg-pool; sdk/python).
    { target: 'targets/python/psycopg_advisory_lock_pool.py', expect: 'FAIL' },
    { target: 'targets/python/psycopg_advisory_lock_checked_out.py', expect: 'PASS' },
  ],
  // Each good reference with its guard removed must FAIL (lock-oracles selfcheck).
  mutations: [
    {
      of: 'targets/postgres/advisory-lock-checked-out-client.ts',
      guard: 'the lock taken on the checked-out client that unlocks it (taken through the pool instead)',
      edits: [
        [
          'if (ok(await client.query(TRY_LOCK, [env.key]))) return { client };',
          'if (ok(await pool.get().query(TRY_LOCK, [env.key]))) return { client };',
        ],
      ],
    },
    {
      of: 'targets/java/AdvisoryLockDedicatedConnection.java',
      guard: 'the lock taken on the checked-out connection that unlocks it (taken through the pool instead)',
      edits: [
        [
          'if (PgJdbc.ask(connection, PgJdbc.TRY_LOCK, env.key))',
          'if (PgJdbc.askPool(pool, PgJdbc.TRY_LOCK, env.key))',
        ],
      ],
    },
    {
      of: 'targets/python/psycopg_advisory_lock_checked_out.py',
      guard: 'the lock taken on the checked-out connection that unlocks it (taken through the pool instead)',
      edits: [
        [
          '        if connection.execute(TRY_LOCK, (env.key,)).fetchone()[0]:\n',
          '        with pool.connection() as borrowed:\n' +
            '            locked = borrowed.execute(TRY_LOCK, (env.key,)).fetchone()[0]\n' +
            '        if locked:\n',
        ],
      ],
    },
  ],
  play: (s, p): Promise<V314Observations> => (p.scenario === 'pool' ? playPool(s, p) : playPooler(s, p)),
  judge: judgeV314,
});
