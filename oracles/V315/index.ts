/**
 * V315 — a leader keeps acting after losing leadership.
 *
 * Scenario: replica A runs the target's leader loop through its own wire proxy and writes; B runs
 * the same loop directly and is denied while A leads. At A's first write, A is cut off from the
 * store at its proxy (blackhole: nothing delivered either way; partition: a blackhole, and A's
 * writes from its next one on held on their way to the resource, delivered when the cut is lifted;
 * drop: its connections reset and
 * reconnects refused; connection-killed, or its old name kill: the store itself closes A's
 * connections — Redis CLIENT KILL, Postgres pg_terminate_backend — and the proxy refuses
 * reconnects, the registry's fault landing itself) while its process keeps running, so its
 * renewals fail and its lease lapses;
 * B becomes leader and writes. The cut lasts until `observe` ms after B's first write; then it is
 * lifted and both loops are stopped through env.signal.
 * Property: A's writes stop before B's first write: no accepted write by A after B's first write
 * in the resource's arrival order (overlap 0, counted by writer identity at the resource).
 * Preconditions: A led and wrote; A's renewals were stopped or refused at the wire (the proxy stopped A's commands or
 * refused its reconnects; on an --explore run instead: A was held at the explored point); B became leader and wrote while A was cut off; a violation counts only
 * while B's lease was live as that write arrived (B's lock read in the store before the harness
 * accepted it): A's writes on a lock B let lapse are not A acting beside a leader.
 * Window: from B's first write until both loops are told to stop (the cut plus `observe` ms after
 * it is lifted), and only while B's lease is live: before accepting each of A's writes after B's
 * first the harness reads B's lock (scenarios/lease-at-writes.ts) — the key's PTTL on Redis/Valkey
 * (or a hash field's declared expiresField on the harness's clock); on Postgres the lease row the
 * target declares with storeKey(env) (`{ table, keyColumn, key, expiresColumn }`, read as
 * `expiresColumn - now()`), else B's session advisory lock in pg_locks, still held by B's session
 * of its first write. A lease in a table the target does not declare cannot be read, so a
 * violation there is INCONCLUSIVE, never FAIL: a machine loaded enough that B's renewals come late
 * lets B's lease lapse and A re-take a free lock (seen once in a 5-run selfcheck).
 * A leader loop that throws before its first write (A leading alone, or B waiting to lead: a
 * denied replica waits and retries, it does not end) is the target's error: ERROR naming leader().
 * A's loop may throw once it is cut off (its connection broken by the fault), and either loop once
 * env.signal aborted: that is the loop ending, judged.
 * With --fault failover (--topology replicated[:R] | sentinel[:R]): the master's replication is
 * held from before A leads, so A's leader key (and a fence A INCRs there) lives on the master
 * alone; at A's first write A's store traffic is held at its proxy (a blackhole), the master is
 * SIGKILLed and a replica promoted (scenarios/failover.ts, the steps V310's and V313's failovers
 * use); the key is gone, so B leads on the promoted node at once, inside A's lease; the cut then
 * goes on as above. Judged with two more preconditions (failover-checks.ts): A's key lived on the
 * master alone when it died, and B's first write came after the promotion and inside A's lease by
 * the dead master's PTTL; B's lease is read on the promoted master before each of A's writes, as
 * every read of the lock on a topology also reads each node.
 * On a cluster (--store cluster, store-cut-play.ts: the store's own cut-off, node-partitioned): A and
 * B lead through their nodes; at A's first write A's node is partitioned from the other nodes (its
 * renewals with the key's home dropped)
 * while A runs; B leads once the home's grant lapsed; A is watched --observe ms more with the
 * partition in force, then the loops stop and it heals. B's lease is the home's grant as the
 * target's inspect member reports it (without one, a violation is INCONCLUSIVE, saying so).
 * With --contenders N (3 or more): B, C, … run their leader loops together once A is cut off, and
 * the lock is read before every holder's write is accepted; the property is then that no two
 * leaders act at once: for every pair that wrote, the earlier one's accepted writes after the later
 * one's first count while the later one's lease was live by the reading before each. --explore also
 * kills A once it led and, its lease lapsed, holds B at each command of its election (before it, or
 * its reply held) while C, D, … lead; B is let go once one of them wrote.
 * Files: play.ts runs the scenario (cut.ts: how A is cut off, as a Stop; contenders.ts: B, C, …
 * racing; failover-checks.ts: the failover's preconditions) and records V315Observations (observations.ts); judge.ts judges them, a pure function
 * (judge-contenders.ts: every pair of leaders); params.ts declares the parameters; explore.ts says
 * how --explore searches its schedules.
 */
import { defineOracle } from '../../src/oracle/definition.ts';
import { v315Explore } from './explore.ts';
import { judgeV315, V315_PRECONDITIONS } from './judge.ts';
import { v315Params } from './params.ts';
import { playV315 } from './play.ts';

// A 2 s lease: B leads on the promoted node inside it (the failover takes ~0.1–0.2 s alone).
const FAILOVER_PARAMS = { fault: 'failover', ttl: 2000, timeout: 8000 };
// The Sentinels take ~2 s to promote (down-after 200 ms): a lease that outlives the failover.
const SENTINEL_FAILOVER_PARAMS = { fault: 'failover', ttl: 5000, timeout: 10000 };

/** A reference under --fault failover on a master with one replica. */
function failover(target: string, expect: 'PASS' | 'FAIL') {
  return {
    target,
    expect,
    params: FAILOVER_PARAMS,
    topology: 'replicated:1',
  };
}

export default defineOracle({
  id: 'V315',
  title: 'Leader keeps acting after losing leadership',
  class: 'LK-7 a leader keeps acting after losing leadership',
  scenario:
    "A leads and writes; A's connection is cut at its wire proxy (blackholed or dropped) so its renewals fail while it keeps running; its lease lapses (--fault failover: its leader key lost with the master, a replica promoted); B (or B, C, … together) becomes leader and writes.",
  property:
    "A's writes stop before B's first write: no accepted write by A after B's (overlap 0, by writer identity at the resource); with --contenders 3 or more, no two leaders act at once (every pair).",
  stores: ['redis', 'valkey', 'postgres', 'fs', 'cluster', 'etcd', 'zookeeper'],
  holders: ['A', 'B'],
  params: v315Params,
  preconditions: V315_PRECONDITIONS,
  needs: () => ['leader'],
  validate: (p) =>
    p.timeout <= p.ttl
      ? [`--timeout (${p.timeout}) must be longer than --ttl (${p.ttl}): B can only lead after A's lease lapses`]
      : [],
  references: [
    { target: 'targets/redis/leader/cached-flag.ts', expect: 'FAIL' },
    // npm etcd3's Election (its keys under the prefix election/<key>/): the cached elected flag, and fenced.
    {
      target: 'targets/etcd/election-cached.ts',
      expect: 'FAIL',
      store: 'etcd',
      params: { ttl: 2000 },
      notExplored:
        "V315's explored boundaries are the leader's store commands on the lock; an etcd3 leader's only traffic after it leads is its lease's keepalives, on no key",
    },
    { target: 'targets/etcd/election-fenced.ts', expect: 'PASS', store: 'etcd', params: { ttl: 2000 } },
    // Its leader key under "lock.<key>" with no storeKey: where it lives is inferred from A's own loop.
    { target: 'test/fixtures/targets/leader/cached-flag-prefixed-undeclared.ts', expect: 'FAIL' },
    { target: 'targets/redis/leader/cached-flag.ts', expect: 'FAIL', params: { fault: 'drop' } },
    // connection-killed lands itself (src/faults/generic/connection-killed.ts); kill, its old name, still runs it.
    { target: 'targets/redis/leader/cached-flag.ts', expect: 'FAIL', params: { fault: 'connection-killed' } },
    { target: 'targets/redis/leader/taken-once.ts', expect: 'FAIL' },
    { target: 'targets/redis/leader/recheck-each-write.ts', expect: 'PASS' },
    { target: 'targets/redis/leader/recheck-each-write.ts', expect: 'PASS', params: { fault: 'drop' } },
    { target: 'targets/redis/leader/recheck-each-write.ts', expect: 'PASS', params: { fault: 'connection-killed' } },
    { target: 'targets/redis/leader/cached-flag-fenced.ts', expect: 'PASS' },
    // A partition holds A's writes on their way too: the write A sent as leader arrives after B's.
    { target: 'targets/redis/leader/cached-flag.ts', expect: 'FAIL', params: { fault: 'partition' } },
    { target: 'targets/redis/leader/cached-flag-fenced.ts', expect: 'PASS', params: { fault: 'partition' } },
    { target: 'targets/redis/leader/recheck-each-write.ts', expect: 'PASS', params: { fault: 'partition' } },
    { target: 'targets/postgres/leader/cached-flag.ts', expect: 'FAIL', store: 'postgres' },
    { target: 'targets/postgres/leader/cached-flag.ts', expect: 'FAIL', store: 'postgres', params: { fault: 'drop' } },
    { target: 'targets/postgres/leader/recheck-each-write.ts', expect: 'PASS', store: 'postgres' },
    {
      target: 'targets/postgres/leader/recheck-each-write.ts',
      expect: 'PASS',
      store: 'postgres',
      params: { fault: 'drop' },
    },
    { target: 'targets/postgres/leader/cached-flag.ts', expect: 'FAIL', store: 'postgres', params: { fault: 'kill' } },
    {
      target: 'targets/postgres/leader/recheck-each-write.ts',
      expect: 'PASS',
      store: 'postgres',
      params: { fault: 'connection-killed' },
    },
    // A session advisory lock: the server ends A's session and frees its lock, B leads at once.
    {
      target: 'targets/postgres/leader/session-lock-cached.ts',
      expect: 'FAIL',
      store: 'postgres',
      params: { fault: 'connection-killed' },
    },
    {
      target: 'targets/postgres/leader/session-lock-recheck.ts',
      expect: 'PASS',
      store: 'postgres',
      params: { fault: 'connection-killed' },
    },
    // A file store: A's filesystem calls held (a blackhole, no wire), its owner-record lease file lapses.
    // ZooKeeper's election recipe: a flag kept by a children watch vs a check with the server before each write.
    {
      target: 'targets/zookeeper/election-cached-flag.ts',
      expect: 'FAIL',
      store: 'zookeeper',
      notExplored:
        "V315's explored boundaries are the leader's store commands on the lock; a ZooKeeper leader's only traffic after it leads is its session's pings, on no node",
    },
    { target: 'targets/zookeeper/election-recheck.ts', expect: 'PASS', store: 'zookeeper' },
    // Java, Curator 5.4's LeaderLatch kept through SUSPENDED (SessionConnectionStateErrorPolicy): the cached
    // hasLeadership() FAILs, the latch node's czxid as the fence PASSes. A 1 s session: A calls itself LOST
    // 5/3 of a session after its last answer, so a 300 ms session left B (a loaded JVM) ~150 ms to write first.
    {
      target: 'targets/java/curator/CuratorLeaderLatchCached.java',
      expect: 'FAIL',
      store: 'zookeeper',
      params: { ttl: 1000 },
      notExplored:
        "V315's explored boundaries are the leader's store commands on the lock; a ZooKeeper leader's only traffic after it leads is its session's pings, on no node",
    },
    {
      target: 'targets/java/curator/CuratorLeaderLatchFenced.java',
      expect: 'PASS',
      store: 'zookeeper',
      params: { ttl: 1000 },
    },
    { target: 'targets/fs/leader-cached-flag.ts', expect: 'FAIL', store: 'fs' },
    { target: 'targets/fs/leader-recheck-each-write.ts', expect: 'PASS', store: 'fs' },
    // A cluster of the target's own nodes (docs/cluster.md): A's node partitioned from the others.
    {
      target: 'targets/cluster/leader-cached-flag.ts',
      expect: 'FAIL',
      store: 'cluster',
      notExplored:
        "V315's explored boundaries are A's store commands; on a cluster A's cut is its node's partition, not explored yet",
    },
    { target: 'targets/cluster/leader-recheck-each-write.ts', expect: 'PASS', store: 'cluster' },
    // Sound with one candidate after A; with three, explored (B held inside its GET-then-SET election), two lead at once.
    { target: 'targets/redis/leader/elect-get-then-set.ts', expect: 'PASS', params: { ttl: 2000 } },
    { target: 'targets/redis/leader/elect-set-nx.ts', expect: 'PASS', params: { contenders: 3, ttl: 2000 } },
    // A failover (--topology replicated): A's leader key lost with the master, B leads on the promoted node inside A's lease.
    failover('targets/redis/leader/cached-flag.ts', 'FAIL'),
    // Its fence INCRed on the leader key's master fails over with it: the promoted node hands B A's token again.
    failover('targets/redis/leader/cached-flag-fenced.ts', 'FAIL'),
    failover('targets/redis/leader/recheck-each-write.ts', 'PASS'),
    // The fence from a Postgres sequence in a fence store beside the topology: the failover cannot repeat it.
    failover('targets/redis/leader/cached-flag-fenced-sequence.ts', 'PASS'),
    {
      ...failover('targets/redis/leader/cached-flag.ts', 'FAIL'),
      params: SENTINEL_FAILOVER_PARAMS,
      topology: 'sentinel',
    },
    {
      ...failover('targets/redis/leader/recheck-each-write.ts', 'PASS'),
      params: SENTINEL_FAILOVER_PARAMS,
      topology: 'sentinel',
    },
  ],
  // Each good reference with its guard removed must FAIL (lock-oracles selfcheck).
  mutations: [
    {
      of: 'targets/postgres/leader/session-lock-recheck.ts',
      // Removing the check outright leaves A silent while cut off, which V315 cannot judge (INCONCLUSIVE).
      guard: 'the session checked (the same backend) before each write (asked, its answer ignored)',
      store: 'postgres',
      params: { fault: 'connection-killed' },
      edits: [
        [
          'if (leadingOn !== undefined && (await session!.pid()) !== leadingOn) leadingOn = undefined;',
          'if (leadingOn !== undefined) await session!.pid();',
        ],
      ],
    },
    {
      of: 'targets/etcd/election-fenced.ts',
      guard: "the fence (the campaign key's create revision) on each write",
      edits: [['{ fence, value: i }', '{ value: i }']],
      params: { ttl: 2000 },
      store: 'etcd',
    },
    {
      of: 'targets/zookeeper/election-recheck.ts',
      // Removing the check outright has B write before it leads, which V315 cannot judge (INCONCLUSIVE).
      guard: 'the leadership check with the server before each write (asked once, then trusted)',
      edits: [
        ['const validFor = ', 'let led = false;\n    const validFor = '],
        [
          'const leads = await within(leadsNow(env), validFor);',
          'const leads = (led ||= await within(leadsNow(env), validFor));',
        ],
      ],
      store: 'zookeeper',
    },
    {
      of: 'targets/java/curator/CuratorLeaderLatchFenced.java',
      guard: "the latch node's czxid carried with every write as its fence",
      edits: [['Map.of("value", i, "fence", fence)', 'Map.of("value", i)']],
      store: 'zookeeper',
      params: { ttl: 1000 },
    },
    {
      of: 'targets/redis/leader/recheck-each-write.ts',
      guard: 'the leadership check before each write',
      edits: [['if (held && performance.now() < sentAt + validFor) await env.effect', 'await env.effect']],
    },
    {
      of: 'targets/cluster/leader-recheck-each-write.ts',
      guard: 'the lock taken through its node before every write (a flag polled on a timer instead)',
      store: 'cluster',
      edits: [["'recheck-each-write',", "'cached-flag',"]],
    },
    {
      of: 'targets/redis/leader/cached-flag-fenced-sequence.ts',
      guard: 'the fence from the Postgres sequence carried with every write',
      edits: [["await env.effect('write', { fence, value: i });", "await env.effect('write', { value: i });"]],
      params: FAILOVER_PARAMS,
      topology: 'replicated:1',
    },
  ],

  explore: v315Explore,

  play: playV315,
  judge: judgeV315,
});
