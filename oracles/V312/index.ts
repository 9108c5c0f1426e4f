/**
 * V312 — the acquire result is ignored: the job runs whether or not it got the lock.
 *
 * Scenario: holder P runs the job and is held at its first write (so P is inside its critical
 * section, holding the lock); then A runs the same job to the end.
 * Property: A performs 0 effects.
 * Preconditions: P really held the lock (it reached its first write, and the store shows it: the
 * key on Redis, an advisory lock in pg_locks on Postgres); P's lock was still live when A's job
 * ended; A's job finished; A really tried the lock (its pass-through wire proxy saw a command on
 * the key, or an advisory-lock call on Postgres). A job that throws without sending a command on
 * the lock is ERROR naming job() (the target broke before the scenario exercised it), as a
 * throwing acquire() is everywhere; so is P's job throwing before its first write when P runs
 * alone (no explored point: nobody else can hold the lock).
 * Window: A's whole job, while P sits at its first write holding the lock; judged only if P's lock
 * was still live when A's job ended (the key still holding P's token, or its PTTL read while P held
 * it covering each of A's writes, on Redis: another token there may be A's on a lock it took once
 * P's lease lapsed; P's session still holding the advisory lock in pg_locks on Postgres).
 *
 * Explored (--explore): A starts its job first and is held before one of its commands on the lock
 * (its acquire, before its first write) while P takes the lock and is held at its first write; then
 * A's command goes on. A check-then-act acquire (GET, then a plain SET) is caught there. A run whose
 * A never reached its point (its job took another path) proved nothing (INCONCLUSIVE).
 *
 * Files: play.ts runs the scenario and records V312Observations (observations.ts); judge.ts judges
 * them, a pure function; params.ts declares the parameters; explore.ts, its --explore points.
 */
import { defineOracle } from '../../src/oracle/definition.ts';
import { v312Explore } from './explore.ts';
import { judgeV312, V312_PRECONDITIONS } from './judge.ts';
import { v312Params } from './params.ts';
import { playV312 } from './play.ts';

export default defineOracle({
  id: 'V312',
  title: 'Acquire result ignored',
  class: 'LK-3 acquire result ignored',
  scenario:
    'Holder P takes the lock through the job and is held at its first write; then A runs the same job to the end.',
  property: 'A performs 0 effects while the lock is held by another holder.',
  stores: ['redis', 'valkey', 'postgres', 'fs', 'zookeeper', 'etcd'],
  holders: ['P', 'A'],
  params: v312Params,
  preconditions: V312_PRECONDITIONS,
  needs: () => ['job'],
  references: [
    { target: 'targets/redis/ioredis/job-ignores-acquire.ts', expect: 'FAIL' },
    { target: 'targets/redis/node-redis/job-ignores-acquire.ts', expect: 'FAIL' },
    { target: 'targets/redis/ioredis/job-checks-acquire.ts', expect: 'PASS' },
    { target: 'targets/redis/ioredis/job-get-setnx-expire-checked.ts', expect: 'PASS' },
    {
      target: 'targets/redis/ioredis/job-get-setnx-expire-ignored.ts',
      expect: 'PASS',
      knownBad:
        "its GET sees P's lock and A skips the job; only a hold between A's GET and its SETNX (--explore) lets P in, and A writes though its SETNX was refused",
    },
    { target: 'targets/redis/node-redis/job-checks-acquire.ts', expect: 'PASS' },
    { target: 'targets/postgres/job-ignores-try-lock.ts', expect: 'FAIL', store: 'postgres' },
    { target: 'targets/postgres/job-checks-try-lock.ts', expect: 'PASS', store: 'postgres' },
    { target: 'targets/zookeeper/recipe-job-ignores-acquire.ts', expect: 'FAIL', store: 'zookeeper' },
    { target: 'targets/zookeeper/recipe-job.ts', expect: 'PASS', store: 'zookeeper' },
    { target: 'targets/etcd/job-ignores-lock.ts', expect: 'FAIL', store: 'etcd' },
    { target: 'targets/etcd/job-checks-lock.ts', expect: 'PASS', store: 'etcd' },
    { target: 'targets/fs/job-ignores-create.ts', expect: 'FAIL', store: 'fs' },
    { target: 'targets/fs/job-checks-create.ts', expect: 'PASS', store: 'fs' },
    {
      target: 'targets/fs/job-exists-then-create.ts',
      expect: 'PASS',
      store: 'fs',
      knownBad:
        "its existsSync sees P's lock file and A skips the job; only a hold before its plain writeFileSync (--explore) lets P in, and A overwrites P's lock and writes",
    },
  ],
  // Each good reference with its guard removed must FAIL (lock-oracles selfcheck).
  mutations: [
    {
      of: 'targets/zookeeper/recipe-job.ts',
      guard: "the job's check that its try took the lock",
      edits: [['jobUnderRecipe(env, false)', 'jobUnderRecipe(env, false, false)']],
      store: 'zookeeper',
    },
    {
      of: 'targets/etcd/job-checks-lock.ts',
      guard: "the job's return on etcd3's EtcdLockFailedError",
      edits: [['writeSteps(env), true)', 'writeSteps(env), false)']],
      store: 'etcd',
    },
    {
      of: 'targets/redis/ioredis/job-checks-acquire.ts',
      guard: "the check of the acquire's result",
      edits: [["'PX', env.ttlMs, 'NX')) === null) {", "'PX', env.ttlMs, 'NX')) === null && false) {"]],
    },
    {
      of: 'targets/postgres/job-checks-try-lock.ts',
      guard: "the check of pg_try_advisory_lock's result",
      store: 'postgres',
      edits: [
        [
          'if (!ok(await client.query(TRY_LOCK, [env.key]))) {',
          'if (!ok(await client.query(TRY_LOCK, [env.key])) && false) {',
        ],
      ],
    },
    {
      of: 'targets/fs/job-checks-create.ts',
      guard: "the check of the 'wx' create's result (EEXIST)",
      store: 'fs',
      edits: [
        [
          "if ((await createLock(env, token)) === 'held elsewhere') {",
          "if ((await createLock(env, token)) === 'held elsewhere' && false) {",
        ],
      ],
    },
  ],

  explore: v312Explore,

  play: playV312,
  judge: judgeV312,
});
