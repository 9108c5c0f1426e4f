/**
 * V310 — a release without an owner check deletes the next holder's lock.
 *
 * Scenario (variant "pause"): A takes the lock, then is stopped (SIGSTOP) until its TTL lapses and
 * B takes the lock; A resumes and releases. Variant "narrow": A takes the lock and starts its
 * release, but is held after its GET-and-compare, before its delete, until its TTL lapses and B
 * takes the lock; then A's release goes on. Where A is held: `--hold wire` (default) keeps A's
 * delete command (DEL / UNLINK / a deleting script) at A's wire proxy, so no target change is
 * needed; `--hold seam` holds A at env.seam("release:before-delete").
 * Property: B's lock survives A's release, seen from three sides: the store (the lock's key, or the
 * target's storeKey, still holds B's lock: B's token, or, where no declared token matches, the lock
 * B's own traced call made — the inode its mkdir or create left, the value its SET … NX wrote:
 * owner.ts), B (its extend, or a second release when the target has
 * no extend, still succeeds on its live lease) and a third holder C (still denied). A release that
 * overwrites B's claim instead of deleting it (marks it done, resets a hash field) leaves C denied,
 * but B's own extend then fails.
 * Preconditions: A held the lock, and the harness found it where the target says it lives; A was
 * stopped/held until B took the lock; A's release ran; B checked its lease while it was still live.
 * Window: B's lease, from B's acquire until the end of its TTL (or of the PTTL read right after B
 * acquired, when later); the key read after A's release, C's try and B's own extend/release count
 * only when answered inside it (else INCONCLUSIVE: B's lease may simply have lapsed). B's refusal
 * that the store contradicts (B's token still in the key after A's release) is B's own (its client's
 * clock, say) and does not count.
 * Throws: acquire() throwing is ERROR; A's release may throw on a lease it lost (a helper's "not the
 * owner"): it may then never have reached the store (INCONCLUSIVE); B's extend/release throwing on a
 * lease the store still shows as B's is ERROR, on a lease gone or not B's it counts as refused.
 * Files: play.ts runs the scenario and records V310Observations (observations.ts); judge.ts judges
 * them, a pure function, with b-window.ts (which of B's answers count); params.ts declares the
 * parameters.
 */
import { defineOracle } from '../../src/oracle/definition.ts';
import { judgeV310, V310_PRECONDITIONS } from './judge.ts';
import { v310Params } from './params.ts';
import { playV310 } from './play.ts';
import { RENEWAL, traceV310 } from './renewal.ts';

// A 2 s lease: B takes the lock on the promoted node inside it (the failover takes ~0.2 s alone).
const FAILOVER = {
  params: { variant: 'failover', ttl: 2000, timeout: 8000 },
  topology: 'replicated:1',
  notExplored:
    "V310 --explore explores one server; a topology's failover is explored on V313 only (docs/topologies.md)",
} as const;

export default defineOracle({
  id: 'V310',
  title: 'Release without an owner check',
  class: 'LK-1 release without an owner check (incl. the narrow GET → compare → DEL)',
  scenario:
    'A takes the lock and is stopped (or, "narrow", held inside its release between its check and its delete) until its TTL lapses and B takes the lock; then A releases.',
  property:
    "B's lock survives A's release: the key still holds B's lock (B's token, or what B's own acquire made there), B can still extend (or release) its lease, and a third holder C is denied.",
  stores: ['redis', 'valkey', 'fs', 'postgres', 'etcd', 'zookeeper'],
  holders: ['A', 'B', 'C'],
  later: ['B', 'C'],
  params: v310Params,
  preconditions: V310_PRECONDITIONS,
  needs: () => ['acquire', 'release'],
  validate: (p) => (p.timeout <= p.ttl ? [`--timeout (${p.timeout}) must be longer than --ttl (${p.ttl})`] : []),
  // --fault NAME: the variants that are only which fault lands at A's release.
  faultRuns: {
    'hold-before': { variant: 'narrow', hold: 'wire' },
    pause: { variant: 'pause' },
    partition: { variant: 'narrow', hold: 'partition' },
    failover: { variant: 'failover' },
  },

  explore: {
    part: 'release',
    also: [RENEWAL],
    // A partition (A cut off from the store from that command on, its own renewals held too) is
    // what lands on a lock that renews itself; a file store's calls have no wire to cut.
    faults: ['hold-before', 'hold-reply', 'reply-dropped', 'partition'],
    params: { variant: 'narrow', hold: 'wire' },
    dimensions: (_, boundary): Record<string, readonly string[]> =>
      boundary.part === RENEWAL ? { renewal: ['stalls', 'across-release'] } : {},
    doc: "every command (and seam) of A's release on the lock key — on a file store every call A makes on the lock's path after it acquired: its renewal's, then its release's —: held before it, or its reply held from A, until A's TTL lapsed (or the command freed the lock, or A released across its held renewal) and B took the lock; then A's renewal and release go on — a command's reply delivered, or dropped with A's connection so A's client re-sends the command (ioredis) or gives up on it, the store's runs of each command counted",
    references: {
      safe: [
        'targets/redis/ioredis/release-clock-guarded-cad.ts',
        'targets/redis/ioredis/release-marks-done-checked.ts',
        'targets/redis/ioredis/lock-correct.ts',
        'targets/redis/node-redis/lock-correct.ts',
        'targets/redis/redlock/lock.ts',
        'targets/redis/ioredis/watchdog-cad.ts',
        'targets/redis/ioredis/lock-prefixed-key.ts',
        'targets/redis/ioredis/lock-hash-field.ts',
        'targets/redis/job-claim/complete-empties-checked.ts',
        // Go: redigo SET NX PX with a compare-and-delete release.
        'targets/go/redigo_release_compare_delete.go',
        // A lease stamped before its wx create, and renewed through the fs boundaries' round trips: a longer TTL.
        { target: 'targets/fs/lease-file-fenced.ts', store: 'fs', params: { ttl: 5000, timeout: 12000 } },
        { target: 'targets/fs/lease-lib-fenced.ts', store: 'fs', params: { ttl: 5000, timeout: 12000 } },
      ],
      alsoBad: [
        'test/fixtures/targets/release-get-compare-del-no-seams.ts',
        // proper-lockfile 4.1.2: held before its unlock's rmdir by path, A removes B's directory (no
        // token: B's observed by its mkdir). Its plain pause is FAIL or INCONCLUSIVE by A's event loop's order.
        { target: 'targets/fs/proper-lockfile.ts', store: 'fs', params: { ttl: 3000 } },
      ],
      params: { ttl: 1000 },
    },
    trace: (s, tracer, p) => traceV310(s, tracer, p.ttl),
  },
  references: [
    // Python (sdk/python): redis-py 4.3.4's Lock released with a bare delete, and with its own Lua compare-and-delete.
    { target: 'targets/python/redis_py_release_bare_delete.py', expect: 'FAIL' },
    { target: 'targets/python/redis_py_lock_timeout.py', expect: 'PASS' },
    { target: 'targets/redis/ioredis/release-bare-del.ts', expect: 'FAIL' },
    // etcd: a lease-attached key (npm etcd3). etcd3 keeps the lease alive while a release is held, so
    // --variant narrow never lands there (INCONCLUSIVE): the pause is the case.
    { target: 'targets/etcd/release-bare-delete.ts', expect: 'FAIL', store: 'etcd', params: { ttl: 1000 } },
    { target: 'targets/etcd/release-checked.ts', expect: 'PASS', store: 'etcd', params: { ttl: 1000 } },
    // A's lock lost in a failover (--topology replicated): B takes it on the promoted node while A's lease lives.
    { ...FAILOVER, target: 'targets/redis/ioredis/release-bare-del.ts', expect: 'FAIL' },
    { ...FAILOVER, target: 'targets/redis/ioredis/lock-correct.ts', expect: 'PASS' },
    { target: 'targets/redis/node-redis/release-bare-del.ts', expect: 'FAIL' },
    { target: 'targets/redis/ioredis/release-get-compare-del.ts', expect: 'FAIL', params: { variant: 'narrow' } },
    { target: 'targets/redis/node-redis/release-get-compare-del.ts', expect: 'FAIL', params: { variant: 'narrow' } },
    {
      target: 'targets/redis/ioredis/release-get-compare-del.ts',
      expect: 'FAIL',
      params: { variant: 'narrow', hold: 'seam' },
    },
    { target: 'targets/redis/ioredis/lock-correct.ts', expect: 'PASS' },
    { target: 'targets/redis/ioredis/lock-correct.ts', expect: 'PASS', params: { variant: 'narrow' } },
    { target: 'targets/redis/ioredis/lock-correct.ts', expect: 'PASS', params: { variant: 'narrow', hold: 'seam' } },
    { target: 'targets/redis/node-redis/lock-correct.ts', expect: 'PASS' },
    { target: 'targets/redis/node-redis/lock-correct.ts', expect: 'PASS', params: { variant: 'narrow' } },
    { target: 'targets/redis/redlock/lock.ts', expect: 'PASS' },
    { target: 'targets/redis/redlock/lock.ts', expect: 'PASS', params: { variant: 'narrow' } },
    // No token reported: B's lock is told by the value B's own SET … NX wrote (seen at its wire proxy).
    { target: 'targets/redis/semaphore/mutex-lock.ts', expect: 'PASS' },
    { target: 'targets/redis/semaphore/mutex-lock.ts', expect: 'PASS', params: { variant: 'narrow' } },
    // A lock that renews itself on a connection of its own: held at its wire proxy, A's delete
    // cannot let B in (the watchdog keeps A's lease); cut off from its delete on, A's lease lapses.
    {
      target: 'targets/redis/ioredis/watchdog-bare-del.ts',
      expect: 'FAIL',
      params: { variant: 'narrow', hold: 'partition' },
    },
    {
      target: 'targets/redis/ioredis/watchdog-cad.ts',
      expect: 'PASS',
      params: { variant: 'narrow', hold: 'partition' },
    },
    {
      target: 'targets/redis/ioredis/release-clock-guarded.ts',
      expect: 'PASS',
      knownBad:
        "A resumes after its own deadline and skips its DEL; only a hold between its clock check and its DEL (--variant narrow) shows it deleting B's lock",
    },
    { target: 'targets/redis/ioredis/release-clock-guarded.ts', expect: 'FAIL', params: { variant: 'narrow' } },
    { target: 'targets/redis/ioredis/release-clock-guarded-cad.ts', expect: 'PASS' },
    { target: 'targets/redis/ioredis/release-clock-guarded-cad.ts', expect: 'PASS', params: { variant: 'narrow' } },
    { target: 'targets/redis/ioredis/release-marks-done.ts', expect: 'FAIL' },
    { target: 'targets/redis/ioredis/release-marks-done-checked.ts', expect: 'PASS' },
    { target: 'targets/redis/ioredis/lock-prefixed-key.ts', expect: 'PASS' },
    { target: 'targets/redis/ioredis/lock-hash-field.ts', expect: 'PASS', params: { variant: 'narrow' } },
    { target: 'targets/redis/job-claim/complete-unchecked.ts', expect: 'FAIL' },
    { target: 'targets/redis/job-claim/complete-checked.ts', expect: 'PASS' },
    // The claim cleared as queue libraries clear it, emptying its fields (lockId '', lockExpiresAt ''): the app's "free".
    { target: 'targets/redis/job-claim/complete-empties-unchecked.ts', expect: 'FAIL' },
    { target: 'targets/redis/job-claim/complete-empties-checked.ts', expect: 'PASS' },
    // Held at A's wire proxy just before the command that clears the claim (HSET of its fields to '', or the script).
    { target: 'targets/redis/job-claim/complete-empties-unchecked.ts', expect: 'FAIL', params: { variant: 'narrow' } },
    { target: 'targets/redis/job-claim/complete-empties-checked.ts', expect: 'PASS', params: { variant: 'narrow' } },
    {
      target: 'targets/redis/job-claim/complete-empties-get-compare.ts',
      expect: 'PASS',
      knownBad:
        "complete() reads lockId, compares, then empties the claim with an HSET of its own: A resumes, reads B's lockId and leaves it; only a hold between the compare and the HSET (--variant narrow) shows it emptying B's claim",
    },
    {
      target: 'targets/redis/job-claim/complete-empties-get-compare.ts',
      expect: 'FAIL',
      params: { variant: 'narrow' },
    },
    // ZooKeeper: one ephemeral node; A's session expires while it is stopped (or its delete is held
    // at its wire proxy, its pings queued behind it), its client opens a new session and releases.
    { target: 'targets/zookeeper/node-lock-by-path.ts', expect: 'FAIL', store: 'zookeeper' },
    { target: 'targets/zookeeper/node-lock.ts', expect: 'PASS', store: 'zookeeper' },
    {
      target: 'targets/zookeeper/node-lock-by-path.ts',
      expect: 'FAIL',
      store: 'zookeeper',
      params: { variant: 'narrow' },
    },
    { target: 'targets/zookeeper/node-lock.ts', expect: 'PASS', store: 'zookeeper', params: { variant: 'narrow' } },
    { target: 'targets/zookeeper/recipe-lock.ts', expect: 'PASS', store: 'zookeeper' },
    { target: 'targets/fs/mkdir-bare-rmdir.ts', expect: 'FAIL', store: 'fs' },
    // The same lock declared by its absolute path under env.dir (join(env.dir!, …)): the same FAIL, plain and explored.
    { target: 'targets/fs/mkdir-bare-rmdir-absolute.ts', expect: 'FAIL', store: 'fs' },
    {
      target: 'targets/fs/mkdir-lock.ts',
      expect: 'PASS',
      store: 'fs',
      knownBad:
        "its release reads the owner file, compares, then removes the directory by its path: A resumes, finds B's token and leaves it; only a hold between the compare and the rm (--variant narrow) shows it removing B's lock",
    },
    { target: 'targets/fs/mkdir-lock.ts', expect: 'FAIL', store: 'fs', params: { variant: 'narrow', hold: 'seam' } },
    // A second's lease: a Postgres round trip on a loaded machine can outlast B's 200 ms lease before the judgement.
    {
      target: 'targets/postgres/lease-row-release-no-owner-check.ts',
      expect: 'FAIL',
      store: 'postgres',
      params: { ttl: 1000 },
    },
    { target: 'targets/postgres/lease-row-lock.ts', expect: 'PASS', store: 'postgres', params: { ttl: 1000 } },
    // A claim row cleared in place (holder and lease_until set to NULL, the app's "free") instead of deleted.
    {
      target: 'targets/postgres/claim-row-clear-unchecked.ts',
      expect: 'FAIL',
      store: 'postgres',
      params: { ttl: 1000 },
    },
    { target: 'targets/postgres/claim-row-clear-checked.ts', expect: 'PASS', store: 'postgres', params: { ttl: 1000 } },
    {
      target: 'targets/fs/lease-file.ts',
      expect: 'PASS',
      store: 'fs',
      params: { ttl: 1000 },
      knownBad:
        "its renewal and release read the record, check it, then act by pathname: A resumes from SIGSTOP, reads B's record and leaves it; --explore holds its renewal's write after its check, its rm after its compare, and its renewal across its release, and each lands on B's lock",
    },
    // A lease file's expiry is stamped before its wx create, through the fs boundaries' round trips: a longer TTL.
    { target: 'targets/fs/lease-file-fenced.ts', expect: 'PASS', store: 'fs', params: { ttl: 1000 } },
    // Libraries that hand out nothing the store holds, bound through their public API: whose lock is
    // there is observed (the inode each holder's own mkdir or create left), not declared.
    { target: 'targets/fs/dir-lock-lib-by-path.ts', expect: 'FAIL', store: 'fs' },
    // npm's lockfile 1.0.4: its unlock unlinks whatever file the path names (no token reported).
    { target: 'targets/fs/npm-lockfile.ts', expect: 'FAIL', store: 'fs', params: { ttl: 1000 } },
    {
      target: 'targets/fs/dir-lock-lib-checked.ts',
      expect: 'PASS',
      store: 'fs',
      knownBad:
        "its unlock checks that the path still names the directory it made, then removes it by path: A resumes, finds B's directory and leaves it; --explore holds A between its lstat and its rmdir, and the rmdir removes B's lock",
    },
    {
      target: 'targets/fs/lease-lib-by-path.ts',
      expect: 'PASS',
      store: 'fs',
      params: { ttl: 1000 },
      knownBad:
        "the library's renewal and release read the record, check it, then act by pathname: A resumes from SIGSTOP, reads B's record and leaves it; --explore holds its renewal's write after its check, its rm after its compare, and each lands on B's lock",
    },
    { target: 'targets/fs/lease-lib-fenced.ts', expect: 'PASS', store: 'fs', params: { ttl: 1000 } },
    // Go, redigo 1.8.3 (Debian's golang-github-gomodule-redigo-dev; sdk/go/lockoracles.go).
    { target: 'targets/go/redigo_release_bare_del.go', expect: 'FAIL' },
    { target: 'targets/go/redigo_release_compare_delete.go', expect: 'PASS' },
    { target: 'targets/go/redigo_release_compare_delete.go', expect: 'PASS', params: { variant: 'narrow' } },
  ],
  // Each good reference with its guard removed must FAIL (lock-oracles selfcheck).
  mutations: [
    {
      of: 'targets/etcd/release-checked.ts',
      guard: "the Txn's compare on the key's create revision (any holder's key deleted)",
      edits: [[".if(env.key, 'Create', '==', held.revision)", ".if(env.key, 'Create', '>', 0)"]],
      params: { ttl: 1000 },
      store: 'etcd',
    },
    {
      of: 'targets/python/redis_py_lock_timeout.py',
      guard: "redis-py Lock's own Lua compare-and-delete release (a bare delete of the key instead)",
      edits: [
        ['        lease["lock"].release()\n        return True', '        client.delete(env.key)\n        return True'],
      ],
    },
    {
      of: 'targets/zookeeper/node-lock.ts',
      guard: "the release's check that the node is this session's own (deleted by its path instead)",
      edits: [
        ['releaseNodeLock(env, lease as RecipeLease, false)', 'releaseNodeLock(env, lease as RecipeLease, true)'],
      ],
      store: 'zookeeper',
    },
    {
      of: 'targets/redis/job-claim/complete-checked.ts',
      guard: "complete()'s owner check (HDEL of the claim whoever holds it)",
      edits: [['completeChecksOwner: true', 'completeChecksOwner: false']],
    },
    {
      of: 'targets/redis/job-claim/complete-empties-checked.ts',
      guard: "complete()'s owner check (the claim's fields emptied whoever holds it)",
      edits: [['completeChecksOwner: true', 'completeChecksOwner: false']],
    },
    {
      of: 'targets/redis/ioredis/lock-correct.ts',
      guard: 'the compare in compare-and-delete (a bare DEL)',
      edits: [
        [
          '(await redis.get().eval(COMPARE_AND_DELETE, 1, env.key, String(lease.token))) === 1',
          '(await redis.get().del(env.key)) === 1',
        ],
      ],
    },
    {
      of: 'targets/redis/ioredis/lock-correct.ts',
      guard: 'the compare in compare-and-delete (a bare DEL), after a failover',
      edits: [
        [
          '(await redis.get().eval(COMPARE_AND_DELETE, 1, env.key, String(lease.token))) === 1',
          '(await redis.get().del(env.key)) === 1',
        ],
      ],
      params: FAILOVER.params,
      topology: FAILOVER.topology,
    },
    {
      of: 'targets/redis/ioredis/watchdog-cad.ts',
      guard: 'the compare in compare-and-delete (a bare DEL) of a lock that renews itself',
      edits: [['(await redis.eval(COMPARE_AND_DELETE, 1, key, token)) === 1', '(await redis.del(key)) === 1']],
      params: { variant: 'narrow', hold: 'partition' },
    },
    {
      of: 'targets/redis/node-redis/lock-correct.ts',
      guard: 'the compare in compare-and-delete (a bare DEL)',
      edits: [
        [
          '(await redis.get().eval(COMPARE_AND_DELETE, { keys: [env.key], arguments: [String(lease.token)] })) === 1',
          '(await redis.get().del(env.key)) === 1',
        ],
      ],
    },
    {
      of: 'targets/fs/mkdir-lock.ts',
      guard: "the release's owner check (a bare rm -r of the lock directory)",
      edits: [
        [
          "    if (owner !== lease.token) return false;\n    await env.seam('release:before-delete');",
          "    await env.seam('release:before-delete');",
        ],
      ],
      store: 'fs',
    },
    {
      of: 'targets/postgres/lease-row-lock.ts',
      guard: "the release's owner check (DELETE by the key alone)",
      edits: [
        [
          '    await dropLease(pool.get(), env.key, String(lease.token));',
          "    await pool.get().query('DELETE FROM lock_oracles_leases WHERE key = $1', [env.key]);",
        ],
      ],
      params: { ttl: 1000 },
      store: 'postgres',
    },
    {
      of: 'targets/postgres/claim-row-clear-checked.ts',
      guard: "the release's owner check (the claim row cleared by its key alone)",
      edits: [['releaseChecksOwner: true', 'releaseChecksOwner: false']],
      params: { ttl: 1000 },
      store: 'postgres',
    },
    {
      of: 'targets/fs/lease-file-fenced.ts',
      guard: 'the owner check through the open file (renewal and release act on whatever record the path names)',
      edits: [['(record: LeaseRecord) => record.ownerId === token;', '(_record: LeaseRecord) => true;']],
      params: { ttl: 1000 },
      store: 'fs',
    },
    {
      of: 'targets/redis/semaphore/mutex-lock.ts',
      guard: "the Mutex's own release (compare-and-delete) replaced by a DEL of its key",
      edits: [['    await mutex?.release();', '    await redis.get().del(mutexKey(env));']],
    },
    {
      of: 'targets/fs/dir-lock-lib-checked.ts',
      guard: "the unlock's check that the path still names the directory it made (rm -r by path)",
      edits: [['{ checked: true }', '{ checked: false }']],
      store: 'fs',
    },
    {
      of: 'targets/go/redigo_release_compare_delete.go',
      guard: "the release script's token comparison (a bare DEL instead)",
      edits: [['_, err := compareAndDelete.Do(t.conn, env.Key, l.Token)', '_, err := t.conn.Do("DEL", env.Key)']],
    },
  ],

  play: playV310,
  judge: judgeV310,
});
