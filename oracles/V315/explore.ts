/**
 * How --explore searches V315's schedules: each of the first commands on the lock of A's leader
 * loop after its first write, held before it or run with its reply held, with the rest of A's
 * traffic blackholed from then on (play.ts lands the point). With --contenders 3 or more, also each
 * command on the lock of B's election — its leader loop started once A's lease lapsed, until its
 * first write — held before it or its reply held while C, D, … run their loops (./contenders.ts).
 * On --topology replicated|sentinel the same commands are points where the master fails over.
 */
import type { ExploreSpec } from '../../src/oracle/explore-spec.ts';
import { paceOf, type TopologyPace } from '../../src/oracle/store-facts.ts';
import type { Boundary } from '../../src/oracle/explore-point.ts';
import { traceFromFirstWrite } from '../../src/oracle/traces.ts';
import type { v315Params } from './params.ts';

/** How many of the leader loop's commands on the lock, after A's first write, --explore tries. */
const EXPLORED_COMMANDS = 2; // one take-or-extend round (SET NX, then the compare-and-pexpire), or two renewals

/**
 * A failover point: B leads on the promoted node at once, but several points fail over at once on a
 * loaded machine; the lease must outlive the failover: 5 s, and however much slower the topology's
 * failover is (the Sentinels take ~2 s to promote: src/stores/topology-pace.ts).
 */
function exploredFailoverTimes(pace: TopologyPace): { ttl: number; timeout: number } {
  const slower = pace.failoverSlowerByMs ?? 0;
  return { ttl: 5000 + slower, timeout: 15000 + 2 * slower };
}

/** The part of B's run a point on a candidate lands in: its leader loop from A's lapsed lease to its first write. */
export const ELECTION = 'election';

export const v315Explore: ExploreSpec<typeof v315Params> = {
  part: 'leader',
  // A kill only ends A's writes (nothing left to judge); a held write receipt alone never lets A's
  // lease lapse while a timer renews it.
  faults: ['hold-before', 'hold-reply'],
  // The cut is the point itself plus a blackhole of the rest of A's traffic.
  params: { fault: 'blackhole' },
  doc: `each of the first ${EXPLORED_COMMANDS} commands on the lock of A's leader loop after its first write: held before it, or run with its reply held, and everything else A sends blackholed from then on, until A's lease lapsed and B led and wrote; then the cut is lifted`,
  // --topology replicated|sentinel: the same commands, the master failing over there (./play.ts).
  topology: {
    faults: ['failover'],
    params: (kind) => exploredFailoverTimes(paceOf(kind)),
    doc: `replicated|sentinel: each of the first ${EXPLORED_COMMANDS} commands on the lock of A's leader loop after its first write, the master failing over there: replication held from before A leads, the command run on the master with its reply held and everything else A sends blackholed, the master SIGKILLed and a replica promoted, B leads on the promoted node; A's traffic let go --observe ms after B's first write`,
  },
  contenders: {
    holder: 'B',
    part: ELECTION,
    faults: ['hold-before', 'hold-reply'],
    applies: (p) => p.contenders >= 3,
    doc: "--contenders 3 or more: also every command on the lock of B's election (A killed once it led, its lease lapsed; B's loop until its first write), held before it or its reply held while C, D, … run their loops, until one of them led and wrote",
  },
  references: {
    safe: [
      'targets/redis/leader/cached-flag-fenced.ts',
      'targets/redis/leader/recheck-each-write.ts',
      { target: 'targets/fs/leader-recheck-each-write.ts', store: 'fs' },
      // Its session checked before each write: every write with its connection killed there (a fault that lands itself).
      { target: 'targets/postgres/leader/session-lock-recheck.ts', store: 'postgres' },
      // One candidate cannot race itself: the GET-then-SET election is sound with --contenders 2.
      // A 2 s lease: the earlier leader renews at half of it, so a successor let go at its first write still writes before that renewal under load.
      { target: 'targets/redis/leader/elect-get-then-set.ts', params: { contenders: 2, ttl: 2000 } },
      { target: 'targets/redis/leader/elect-set-nx.ts', params: { contenders: 3, ttl: 2000 } },
      // A failover at each point: the re-check re-sent to the promoted node, the sequence's fence older than B's.
      { target: 'targets/redis/leader/recheck-each-write.ts', topology: 'replicated:1' },
      { target: 'targets/redis/leader/cached-flag-fenced-sequence.ts', topology: 'replicated:1' },
    ],
    alsoBad: [{ target: 'targets/redis/leader/elect-get-then-set.ts', params: { contenders: 3, ttl: 2000 } }],
  },
  async trace(s, tracer, p) {
    const a = await tracer.holder(s);
    const { call: loop } = await traceFromFirstWrite(tracer, a, 'leader', (wait) => s.within(wait, p.timeout));
    const enough = () => tracer.boundaries.filter((b) => b.part === 'leader' && b.onKey).length >= EXPLORED_COMMANDS;
    await s.waitUntil(async () => enough(), 3 * p.ttl, Math.max(5, Math.round(p.ttl / 20)));
    tracer.end();
    a.abort();
    await s.within(loop, p.timeout);
    if (p.contenders >= 3) await traceElection(s, tracer, p);
  },
  select: onLockCommands,
  // A fault that lands itself also lands at A's first writes after its first: a leader whose lock is
  // its session (a Postgres advisory lock) sends no command on the lock there, and at a write its
  // connection killed ends that session, the lock with it.
  selectLanding: (boundaries) => [
    ...onLockCommands(boundaries),
    ...boundaries.filter((b) => b.kind === 'effect').slice(0, EXPLORED_COMMANDS),
  ],
};

/** The first commands on the lock of A's leader loop after its first write (a file store: its calls on the lock's path). */
function onLockCommands(boundaries: readonly Boundary[]): Boundary[] {
  return boundaries
    .filter((b) => (b.kind === 'command' || b.kind === 'fs') && b.onKey === true)
    .slice(0, EXPLORED_COMMANDS);
}

/** B's election, traced alone: once A's lease has lapsed in the store, B's loop until its first write. */
async function traceElection(
  s: Parameters<ExploreSpec['trace']>[0],
  tracer: Parameters<ExploreSpec['trace']>[1],
  p: { ttl: number; timeout: number },
): Promise<void> {
  const left = await s.readLock();
  if (left.exists) await s.sleep(left.pttlMs > 0 ? left.pttlMs + 1 : p.ttl);
  const b = await tracer.holder(s, 'B');
  tracer.begin(ELECTION);
  const first = b.holdNextEffect();
  const loop = b.call('leader');
  await s.within(Promise.race([first.reached, loop]), p.timeout);
  tracer.end();
  first.release();
  b.abort();
  await s.within(loop, p.timeout);
}
