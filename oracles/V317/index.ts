/**
 * V317 — an expiry written on one clock and compared on another.
 *
 * Scenario, run once per leg: (app-ahead) the holders' wall clocks run --skew ms ahead of the
 * store's (fake `Date` in each holder; real store clock); (store-ahead) the store's wall clock runs
 * --skew ms ahead of the holders' (the store's clock offset); (a-ahead) A's clock alone runs --skew
 * ahead, B's and the store's are real; (b-ahead) B's alone. Each time A takes a --ttl ms lease,
 * B tries halfway through it, and again --margin ms after it should have lapsed.
 * Legs: --variant both = app-ahead, store-ahead (the app's clock against the store's); holders =
 * a-ahead, b-ahead (holder against holder: an expiry written on A's clock and compared on B's);
 * auto (default) = by where the store compares a lease's expiry (its family's expiryClock): both
 * where the store compares an instant the app wrote on its own clock (Postgres), holders where it
 * counts a duration itself or each contender ages the lock (a Redis TTL, an etcd lease, a lock
 * file: the comparison that can go wrong there is one holder's clock against another's), and on the
 * target's own nodes (--store cluster, cluster-play.ts) home-ahead: the key's home's clocks ahead of
 * the other nodes' (home-behind: behind), its deadlines written on one node's clock and read on another's.
 * Property: no early takeover (B denied while A's lease is live: no overlap) and no skipped event
 * (B takes over once the lease has lapsed), timed on the harness's monotonic clock.
 * Preconditions: the skew was in force when the lease was written and compared (the holders'
 * offsets from their clock replies; the store's measured against the real clock: Postgres
 * clock_timestamp(), Redis TIME); A took the lease.
 * Window: an early takeover counts only when B's try was answered inside A's lease — --ttl from
 * when A's acquire began, by the harness's monotonic clock (else INCONCLUSIVE: under load B's try can
 * come after the lease lapsed on time); a skipped takeover needs no window (B's late try is sent
 * --margin after the latest the lease could end).
 *
 * Explored (--explore): each boundary of A's acquire × the clock faults that land at its kind (the
 * registry's): at a command on the lock, A's wall clock stepped --skew ms ahead or back right before
 * A prepares it (clock-ahead / clock-back; B's and the store's clocks real; one leg); at a message
 * on a link to or from A's node (--store cluster), the key's home's or A's node's wall clock
 * (--stepped-node, a dimension of those points) stepped --skew ms ahead or back while the message is
 * held at its link proxy (node-clock-ahead / node-clock-back, landing themselves; every clock real
 * before; the cluster play's one leg). A point is judged only when its step landed.
 * Files: play.ts runs the legs and records V317Observations (observations.ts); judge.ts judges
 * them, a pure function; legs.ts says which clock runs ahead in each leg; params.ts declares the
 * parameters.
 */
import { defineOracle } from '../../src/oracle/definition.ts';
import { traceAcquireRelease } from '../../src/oracle/traces.ts';
import { judgeV317, V317_PRECONDITIONS } from './judge.ts';
import { expiryClockOf } from '../../src/oracle/expiry-clock.ts';
import { legsFor } from './legs.ts';
import { v317Params } from './params.ts';
import { playV317 } from './play.ts';

export default defineOracle({
  id: 'V317',
  title: 'Expiry written on one clock, compared on another',
  class: 'CK-2 expiry written on one clock and compared on another',
  scenario:
    "A takes a lease; B tries halfway through it and again just after it lapses. Postgres: the app clocks ahead of the database's, then the database's ahead; Redis: A's clock ahead of B's, then B's ahead of A's.",
  property: 'No early takeover (no overlap) and no skipped takeover, whichever clock is ahead.',
  stores: ['postgres', 'redis', 'valkey', 'fs', 'cluster', 'etcd', 'zookeeper'],
  holders: ['A', 'B'],
  params: v317Params,
  preconditions: V317_PRECONDITIONS,
  needs: () => ['acquire', 'release'],
  // B tries at ttl/2 and at ttl + margin: a skew smaller than either cannot move a takeover
  // across one of those tries, so such a run could not tell a bad target from a good one.
  validate: (p) =>
    p.skew > p.ttl / 2 && p.skew > p.margin
      ? []
      : [
          `--skew (${p.skew}) must exceed half of --ttl (${p.ttl / 2}) and --margin (${p.margin}): B's tries at ttl/2 and ttl + margin could not see a smaller skew`,
        ],
  storeRequest: (p, kind) =>
    legsFor(p.variant, expiryClockOf(kind)).includes('store-ahead') ? { kind, clockOffsetMs: 0 } : { kind },
  references: [
    { target: 'targets/clock/lease-app-clock-expiry.ts', expect: 'FAIL' },
    { target: 'targets/clock/lease-app-clock-expiry.ts', expect: 'FAIL', params: { variant: 'app-ahead' } },
    { target: 'targets/clock/lease-app-clock-expiry.ts', expect: 'FAIL', params: { variant: 'store-ahead' } },
    { target: 'targets/clock/lease-db-clock-expiry.ts', expect: 'PASS' },
    { target: 'targets/clock/redis-queue-app-clock-expiry.ts', expect: 'FAIL', store: 'redis' },
    { target: 'targets/clock/redis-queue-store-clock-expiry.ts', expect: 'PASS', store: 'redis' },
    {
      target: 'targets/clock/redis-queue-app-clock-expiry.ts',
      expect: 'PASS',
      store: 'redis',
      params: { variant: 'app-ahead' },
      knownBad:
        "both workers run the same skew, so an expiry written on one worker's clock and read on the other's is not moved; only holder against holder (a-ahead / b-ahead) shows it",
    },
    {
      target: 'targets/fs/mkdir-lock.ts',
      expect: 'FAIL',
      store: 'fs',
      notExplored: "V317's explored boundaries are store commands; a file lock's calls are not explored on V317 yet",
    },
    { target: 'targets/fs/mkdir-monotonic-stale.ts', expect: 'PASS', store: 'fs' },
    // etcd: a lease record's expiry on the holders' clocks against one etcd's lease clock counts. The
    // member revokes an expired lease on a 500 ms tick: B's late try comes 1500 ms after the TTL.
    {
      target: 'targets/etcd/lease-record-holder-clock.ts',
      expect: 'FAIL',
      store: 'etcd',
      params: { margin: 1500 },
      exploredWith: { margin: 1500 },
    },
    { target: 'targets/etcd/lease-record-etcd-lease.ts', expect: 'PASS', store: 'etcd', params: { margin: 1500 } },
    // ZooKeeper: a record node's expiry on the holders' clocks against its mtime on the server's.
    { target: 'targets/zookeeper/lease-record-holder-clock.ts', expect: 'FAIL', store: 'zookeeper' },
    { target: 'targets/zookeeper/lease-record-server-clock.ts', expect: 'PASS', store: 'zookeeper' },
    // A cluster of the target's own nodes (docs/cluster.md): the key's home's clocks skewed.
    {
      target: 'targets/cluster/clock-remote-wall.ts',
      expect: 'FAIL',
      store: 'cluster',
    },
    {
      target: 'targets/cluster/clock-remote-wall.ts',
      expect: 'FAIL',
      store: 'cluster',
      params: { variant: 'home-behind' },
    },
    { target: 'targets/cluster/clock-own-monotonic.ts', expect: 'PASS', store: 'cluster' },
    {
      target: 'targets/cluster/clock-own-monotonic.ts',
      expect: 'PASS',
      store: 'cluster',
      params: { variant: 'home-behind' },
    },
  ],
  // Each good reference with its guard removed must FAIL (lock-oracles selfcheck).
  mutations: [
    {
      of: 'targets/cluster/clock-own-monotonic.ts',
      guard:
        "the delegation's deadline on the delegate's own monotonic clock (the home's wall-clock expiry against the delegate's wall clock instead)",
      store: 'cluster',
      edits: [["clock: 'own-monotonic'", "clock: 'remote-wall'"]],
    },
    {
      of: 'targets/clock/redis-queue-store-clock-expiry.ts',
      guard: "the store's clock for the expiry (the caller's Date.now() instead)",
      store: 'redis',
      edits: [
        ['import { CLAIM_ON_STORE_CLOCK, UNLOCK_IF_OWNER }', 'import { CLAIM_ON_CALLER_CLOCK, UNLOCK_IF_OWNER }'],
        [
          'eval(CLAIM_ON_STORE_CLOCK, 1, env.key, env.holder, env.ttlMs)',
          'eval(CLAIM_ON_CALLER_CLOCK, 1, env.key, env.holder, env.ttlMs, Date.now())',
        ],
      ],
    },
    {
      of: 'targets/etcd/lease-record-etcd-lease.ts',
      guard:
        "the record on an etcd lease, taken once etcd removed it (its expiresAt compared on the contender's clock instead)",
      store: 'etcd',
      params: { margin: 1500 },
      edits: [["'etcd-lease',", "'holder-clock',"]],
    },
    {
      of: 'targets/zookeeper/lease-record-server-clock.ts',
      guard:
        "the lapse judged on the server's clock (the node's mtime against a probe's; expiresAt against the contender's Date.now() instead)",
      store: 'zookeeper',
      edits: [["'server-clock',", "'holder-clock',"]],
    },
    {
      of: 'targets/fs/mkdir-monotonic-stale.ts',
      guard: "staleness on the contender's monotonic clock (the mtime compared with its wall clock instead)",
      store: 'fs',
      edits: [
        [
          'if (!seen || !unchangedFor(path, seen.mtimeMs, env.ttlMs)) return null;',
          'if (!seen || seen.mtimeMs > Date.now() - env.ttlMs) return null;',
        ],
      ],
    },
  ],

  explore: {
    part: 'acquire',
    // Each boundary takes those its kind allows: A's clock steps before a command, a node's at a link
    // message (a cluster shows no commands, a wire store no link messages).
    faults: ['clock-ahead', 'clock-back', 'node-clock-ahead', 'node-clock-back'],
    // A point at a link message steps one of the nodes: the key's home's clock, or A's node's.
    dimensions: (_, boundary): Record<string, readonly string[]> =>
      boundary.link ? { steppedNode: ['home', 'a-node'] } : {},
    ownFaultsOnly:
      "its points are clock steps: a clock read at A's command is the moment, and a fault on A's connection, lease or session there is no clock's doing",
    params: {},
    doc: "every command of A's acquire on the lock: A's wall clock stepped --skew ms ahead, or back, right before A prepares it (B's and the store's clocks real), or (--store cluster) every message on a link to or from A's node during its lock: the key's home's or A's node's wall clock stepped --skew ms ahead, or back, while the message is held at its link proxy; B tries halfway through A's lease and just after it lapses (on a cluster: once A's delegation lapsed, then A again while B holds)",
    references: {
      safe: [
        { target: 'targets/clock/redis-queue-store-clock-expiry.ts', store: 'redis' },
        { target: 'targets/clock/lease-db-clock-expiry.ts', store: 'postgres' },
        { target: 'targets/cluster/clock-own-monotonic.ts', store: 'cluster' },
      ],
    },
    trace: traceAcquireRelease(false),
  },

  play: playV317,
  judge: judgeV317,
});
