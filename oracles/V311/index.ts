/**
 * V311 — no TTL, or a TTL set non-atomically: a crashed holder blocks everyone.
 *
 * Scenario: A takes the lock and is killed (SIGKILL) — variant "after-acquire" right after its
 * acquire returned, variant "between-commands" at the seam "acquire:after-set" (after the command
 * that created the key, before any other: between SETNX and EXPIRE). B then retries; with
 * --contenders N (3 or more) B, C, … retry together (scenarios/contenders.ts), and --explore also
 * holds B inside its takeover of the dead holder's lock while the others race.
 * Property: the dead holder's lock frees: a contender takes it within TTL + grace of A's acquire,
 * or late — a lock still held then is watched (the contenders retrying, the store's view read)
 * until it frees or the patience bound (--patience, default max(4 × TTL, TTL + grace + 2000 ms)):
 * taken late is a PASS with its lifetime against the TTL, a FAIL with --strict-ttl on; still held
 * at the bound is the finding, said with the bound (a key with PTTL -1 that nobody took over by
 * then is this oracle's) — and no two contenders hold it at once.
 * Preconditions: A reached the kill point (between-commands: the seam; --explore: the point); the
 * key existed when A was killed, with no longer a TTL than --ttl (or none); the kill really happened
 * (SIGKILL).
 * Window: from A's take of the key to the patience bound; B still denied counts only if B's last try
 * began after the key had lapsed by the store's own PTTL (read right after the kill), or the key had
 * no expiry at all (else INCONCLUSIVE: B's tries all came while the lease was running its course),
 * and only if the key, read when B gave up, still held A's token or had no expiry (a key gone or
 * holding another token shows A's key lapsed: B's denial is B's own, e.g. its client's clock refusing
 * a lock its SET took, so INCONCLUSIVE).
 * On a session advisory lock (Postgres or PgBouncer with no lease row declared) the lock is read in
 * pg_locks (session-lock.ts): it has no TTL and is freed when the session holding it ends or is
 * reset; B still denied counts only while the session that held A's lock at the kill still holds it
 * (judge-session-lock.ts). Through PgBouncer V311 asks for session pooling, with --pooler-reset
 * choosing its server_reset_query.
 * Files: play.ts runs the scenario and records V311Observations (observations.ts), watch.ts the
 * watch past TTL + grace; judge.ts judges them, a pure function, from outcome.ts's account of the
 * lock (in time, late, held); params.ts declares the parameters and the patience bound.
 */
import { defineOracle } from '../../src/oracle/definition.ts';
import { TAKEOVER, traceV311 } from './trace.ts';
import { judgeV311, V311_PRECONDITIONS } from './judge.ts';
import { deadlineV311, SERVER_RESET_QUERY, v311Params, validateV311 } from './params.ts';
import { playV311 } from './play.ts';

const SESSION_LOCK = 'targets/postgres/session-lock-own-connection.ts';

export default defineOracle({
  id: 'V311',
  title: 'No TTL, or TTL set non-atomically',
  class: 'LK-2 no TTL, or a TTL set non-atomically',
  scenario:
    'A takes the lock and is killed (SIGKILL) — after its acquire, or between the command that created the key and the one that set its TTL; B (or B, C, …) retries.',
  property:
    "The dead holder's lock frees: a contender takes it within TTL + grace, or late within the patience bound (--patience; reported with its lifetime, a FAIL with --strict-ttl on); a lock still held at the bound (a key with no expiry, PTTL -1, that nobody took over) is the finding, and no two contenders (--contenders 3 or more) hold it at once.",
  stores: ['redis', 'valkey', 'fs', 'postgres', 'pgbouncer', 'etcd', 'zookeeper'],
  holders: ['A', 'B'],
  params: v311Params,
  validate: validateV311,
  deadlineMs: deadlineV311,
  // Through a pooler (PgBouncer), session pooling: each holder's connection keeps one server session
  // (a session lock on it is the holder's), and --pooler-reset says what happens to that session when
  // it leaves. A store with no pooler reads neither setting.
  storeRequest: (p, kind) => ({
    kind,
    poolMode: 'session',
    serverResetQuery: SERVER_RESET_QUERY[p.poolerReset as keyof typeof SERVER_RESET_QUERY],
  }),
  preconditions: V311_PRECONDITIONS,
  needs: () => ['acquire'],
  explore: {
    part: 'acquire',
    faults: ['kill-after-reply'],
    ownFaultsOnly:
      'its points are crashes: A is SIGKILLed there, which ends its connections, keepalives and pings itself, and a lease revoked or a session expired first frees the lock the property asks to see freed',
    params: { variant: 'between-commands' },
    doc: "every command of A's acquire on the lock key: A is SIGKILLed the moment the command's reply reaches A's wire proxy, before A can send the next (no seam needed); B then retries",
    references: {
      safe: [
        'targets/redis/ioredis/acquire-nx-px.ts',
        'targets/redis/ioredis/lock-correct.ts',
        'targets/redis/node-redis/lock-correct.ts',
        'targets/redis/ioredis/lock-prefixed-key.ts',
        // Go: redigo SET NX PX with a compare-and-delete release.
        'targets/go/redigo_release_compare_delete.go',
        // One contender cannot race itself: the DEL-then-SET NX takeover is sound with --contenders 2.
        // A TTL of a second: a held contender's attempt outlasting its lease proves nothing (INCONCLUSIVE) under load.
        { target: 'targets/redis/ioredis/stale-takeover-del.ts', params: { contenders: 2, ttl: 1000 } },
        { target: 'targets/redis/ioredis/stale-takeover-cas.ts', params: { contenders: 3, ttl: 1000 } },
        { target: 'targets/fs/proper-lockfile2.ts', store: 'fs', params: { contenders: 3, ttl: 3000 } },
        // Taken over late at every point (its stale rule a second past the TTL): freed late, a PASS.
        { target: 'targets/fs/mkdir-stale-margin.ts', store: 'fs' },
        { target: SESSION_LOCK, store: 'postgres', params: { ttl: 1000 } },
        { target: SESSION_LOCK, store: 'pgbouncer', params: { ttl: 1000 } },
        // Killed after the reply to its Txn (the gRPC reply paired by stream): freed by the lease, late.
        { target: 'targets/etcd/lock-leased.ts', store: 'etcd', params: { ttl: 1000 } },
      ],
      alsoBad: [
        // The bug is the pooler's setting, which the explored set would drop with the reference's parameters.
        { target: SESSION_LOCK, store: 'pgbouncer', params: { ttl: 1000, poolerReset: 'none' } },
        { target: 'targets/redis/ioredis/stale-takeover-del.ts', params: { contenders: 3, ttl: 1000 } },
        { target: 'targets/fs/proper-lockfile.ts', store: 'fs', params: { contenders: 3, ttl: 3000 } },
        { target: 'targets/fs/npm-lockfile-sync.ts', store: 'fs', params: { contenders: 3, ttl: 1000 } },
      ],
    },
    contenders: {
      holder: 'B',
      part: TAKEOVER,
      faults: ['hold-before', 'hold-reply'],
      applies: (p) => p.contenders >= 3,
      doc: "--contenders 3 or more: also every command (fs: call) of B's takeover of the dead holder's lock, B held before it or its reply held while C, D, … each try the lock once",
    },
    trace: traceV311,
  },
  references: [
    // Python (sdk/python): redis-py 4.3.4's Lock with its default timeout=None, and with a timeout.
    { target: 'targets/python/redis_py_lock_no_timeout.py', expect: 'FAIL' },
    { target: 'targets/python/redis_py_lock_timeout.py', expect: 'PASS' },
    // Python on --store fs: filelock 3.9's FileLock (flock; the kernel frees a killed holder's lock, read
    // in /proc/locks) and a hand-written O_CREAT|O_EXCL lock file with no staleness rule.
    { target: 'targets/python/filelock_flock.py', expect: 'PASS', store: 'fs' },
    {
      target: 'targets/python/lock_file_o_excl.py',
      expect: 'FAIL',
      store: 'fs',
      notExplored:
        "a file lock's explored boundaries are the holder's own file calls, which only a Node holder's node:fs preload reports; a Python holder has none",
    },
    { target: 'targets/redis/ioredis/acquire-no-ttl.ts', expect: 'FAIL' },
    {
      target: 'targets/etcd/lock-no-lease.ts',
      expect: 'FAIL',
      store: 'etcd',
      params: { ttl: 1000 },
      exploredWith: { ttl: 1000 },
    },
    { target: 'targets/etcd/lock-leased.ts', expect: 'PASS', store: 'etcd', params: { ttl: 1000 } },
    { target: 'targets/etcd/lock.ts', expect: 'PASS', store: 'etcd', params: { ttl: 1000 } },
    { target: 'targets/redis/node-redis/acquire-no-ttl.ts', expect: 'FAIL' },
    {
      target: 'targets/redis/ioredis/acquire-setnx-then-expire.ts',
      expect: 'FAIL',
      params: { variant: 'between-commands' },
    },
    {
      target: 'targets/redis/node-redis/acquire-setnx-then-expire.ts',
      expect: 'FAIL',
      params: { variant: 'between-commands' },
    },
    { target: 'targets/redis/ioredis/lock-correct.ts', expect: 'PASS' },
    { target: 'targets/redis/ioredis/lock-correct.ts', expect: 'PASS', params: { variant: 'between-commands' } },
    { target: 'targets/redis/node-redis/lock-correct.ts', expect: 'PASS' },
    { target: 'targets/redis/node-redis/lock-correct.ts', expect: 'PASS', params: { variant: 'between-commands' } },
    {
      target: 'targets/redis/ioredis/acquire-nx-then-pexpire.ts',
      expect: 'PASS',
      knownBad:
        'A is killed after both commands, so the key has its TTL; the kill must land after the SET NX reply, and between-commands needs a seam this helper lacks (INCONCLUSIVE)',
    },
    { target: 'targets/redis/ioredis/acquire-nx-px.ts', expect: 'PASS' },
    { target: 'targets/redis/ioredis/lock-prefixed-key.ts', expect: 'PASS' },
    // The same lock without its storeKey: where it lives is inferred from A's own SET … NX.
    { target: 'test/fixtures/targets/lock-prefixed-undeclared.ts', expect: 'PASS' },
    { target: 'targets/redis/ioredis/lock-hash-field.ts', expect: 'PASS', params: { variant: 'between-commands' } },
    // Never taken over: still held at the patience bound (2600 ms at --ttl 300), PTTL -1 throughout.
    // ZooKeeper's lock recipe: an ephemeral node goes with the killed holder's session, a persistent one never.
    { target: 'targets/zookeeper/recipe-persistent.ts', expect: 'FAIL', store: 'zookeeper' },
    { target: 'targets/zookeeper/recipe-lock.ts', expect: 'PASS', store: 'zookeeper' },
    // Java, Curator 5.4's InterProcessMutex: its EPHEMERAL_SEQUENTIAL node goes with a killed holder's session.
    { target: 'targets/java/curator/CuratorMutexLock.java', expect: 'PASS', store: 'zookeeper' },
    { target: 'targets/fs/mkdir-no-stale.ts', expect: 'FAIL', store: 'fs' },
    // Taken over late, by a stale rule a second past the TTL: the lock frees (its lifetime reported);
    // held to its TTL (--strict-ttl on), it frees but not within it.
    { target: 'targets/fs/mkdir-stale-margin.ts', expect: 'PASS', store: 'fs' },
    {
      target: 'targets/fs/mkdir-stale-margin.ts',
      expect: 'FAIL',
      store: 'fs',
      params: { strictTtl: 'on' },
      exploredWith: { strictTtl: 'on' },
    },
    { target: 'targets/fs/mkdir-lock.ts', expect: 'PASS', store: 'fs' },
    { target: 'targets/fs/mkdir-lock.ts', expect: 'PASS', store: 'fs', params: { variant: 'between-commands' } },
    { target: 'targets/fs/proper-lockfile.ts', expect: 'PASS', store: 'fs', params: { ttl: 3000 } },
    { target: 'targets/fs/proper-lockfile2.ts', expect: 'PASS', store: 'fs', params: { ttl: 3000, contenders: 3 } },
    // Its mtime stamped up to a second ahead: at --ttl 2000 (stale 2000) it frees up to a second late, a PASS.
    { target: 'targets/fs/proper-lockfile2.ts', expect: 'PASS', store: 'fs', params: { ttl: 2000, contenders: 3 } },
    // npm's lockfile: lockSync reclaims a stale lock with nothing re-checked (explored with three contenders: both hold); lock() re-checks under a .STALE lock.
    { target: 'targets/fs/npm-lockfile-sync.ts', expect: 'PASS', store: 'fs', params: { ttl: 1000 } },
    // lock() re-checks under <lock>.STALE, but not safely with three contenders: one whose .STALE try
    // met another's and then found .STALE gone sets opts.stale = false (its ENOENT branch) and so
    // reclaims the other's fresh lock (seen at load: B and C both granted, C unlinking B's linked
    // lock). No explored point forces it yet, so it is a reference with one contender only.
    { target: 'targets/fs/npm-lockfile.ts', expect: 'PASS', store: 'fs', params: { ttl: 1000 } },
    // Sound with one contender; with three, explored (its takeover held), two take the dead holder's lock.
    { target: 'targets/redis/ioredis/stale-takeover-del.ts', expect: 'PASS' },
    { target: 'targets/redis/ioredis/stale-takeover-cas.ts', expect: 'PASS', params: { contenders: 3 } },
    // A second's lease: a Postgres round trip on a loaded machine can outlast 300 ms before the row is read.
    {
      target: 'targets/postgres/lease-row-retry-one-transaction.ts',
      expect: 'FAIL',
      store: 'postgres',
      params: { ttl: 1000 },
      notExplored:
        "A's only explored point kills it right after the Bind of its uncommitted transaction, where its row is not visible yet: the point is INCONCLUSIVE, the plain run FAILs",
    },
    {
      target: 'targets/postgres/lease-row-retry-fresh-transaction.ts',
      expect: 'PASS',
      store: 'postgres',
      params: { ttl: 1000 },
    },
    { target: 'targets/postgres/lease-row-lock.ts', expect: 'PASS', store: 'postgres', params: { ttl: 1000 } },
    // A session advisory lock, read in pg_locks: freed when the holder's own session ends, or when a
    // session-pooling PgBouncer resets the server session its client leaves (DISCARD ALL, its default);
    // with no reset the server session goes back to the pool still holding the dead holder's lock.
    { target: SESSION_LOCK, expect: 'PASS', store: 'postgres', params: { ttl: 1000 } },
    { target: SESSION_LOCK, expect: 'PASS', store: 'pgbouncer', params: { ttl: 1000 } },
    {
      target: SESSION_LOCK,
      expect: 'FAIL',
      store: 'pgbouncer',
      params: { ttl: 1000, poolerReset: 'none' },
      notExplored: 'explored with its --pooler-reset none among the explore references (alsoBad)',
    },
    // Go, redigo 1.8.3: SET NX PX (PASS); SETNX then EXPIRE killed between them at its seam (FAIL; --explore finds it with no seam).
    { target: 'targets/go/redigo_release_compare_delete.go', expect: 'PASS' },
    {
      target: 'targets/go/redigo_setnx_then_expire.go',
      expect: 'FAIL',
      params: { variant: 'between-commands' },
    },
  ],
  // Each good reference with its guard removed must FAIL (lock-oracles selfcheck).
  mutations: [
    {
      of: 'targets/etcd/lock-leased.ts',
      guard: 'the lease the key is put on',
      edits: [['.value(token).lease(id))', '.value(token))']],
      params: { ttl: 1000 },
      store: 'etcd',
    },
    {
      of: 'targets/python/redis_py_lock_timeout.py',
      guard: "redis-py Lock's timeout (its default timeout=None: SET NX without PX)",
      edits: [['timeout=env.ttl_ms / 1000, blocking=False', 'timeout=None, blocking=False']],
    },
    {
      of: 'targets/python/filelock_flock.py',
      guard:
        "filelock's kernel lock (its SoftFileLock instead: a lock file whose existence is the lock, left by a killed holder)",
      edits: [
        ['filelock.FileLock(', 'filelock.SoftFileLock('],
        ['"flock": True', '"flock": False'],
      ],
      store: 'fs',
    },
    {
      of: 'targets/zookeeper/recipe-lock.ts',
      guard: 'the ephemeral queue node (a persistent one outlives the holder)',
      edits: [["tryLock(env, 'ephemeral')", "tryLock(env, 'persistent')"]],
      store: 'zookeeper',
    },
    {
      of: 'targets/redis/ioredis/acquire-nx-px.ts',
      guard: 'the TTL on the acquire (SET NX without PX)',
      edits: [["set(env.key, token, 'PX', env.ttlMs, 'NX')", "set(env.key, token, 'NX')"]],
    },
    {
      of: 'targets/fs/mkdir-lock.ts',
      guard: 'the staleness rule on the acquire (a lock directory never taken over)',
      edits: [['if (!seen || seen.mtimeMs > Date.now() - env.ttlMs) return null;', 'return null;']],
      store: 'fs',
    },
    {
      of: 'targets/postgres/lease-row-retry-fresh-transaction.ts',
      guard: 'each try ending its transaction (the tries share one, whose now() is frozen at its start)',
      edits: [
        [
          "    await tries.query('ROLLBACK');\n    tries.release();\n    tries = undefined;",
          "    await tries.query('ROLLBACK TO SAVEPOINT try_take');",
        ],
      ],
      params: { ttl: 1000 },
      store: 'postgres',
    },
    {
      of: 'targets/go/redigo_release_compare_delete.go',
      guard: 'the PX that gives the lock its TTL in the same SET (dropped: no expiry)',
      edits: [['t.conn.Do("SET", env.Key, token, "NX", "PX", env.TTLMs)', 't.conn.Do("SET", env.Key, token, "NX")']],
    },
  ],

  play: playV311,
  judge: judgeV311,
});
