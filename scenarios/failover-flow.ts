/**
 * The failover flow (a replicated topology: --topology replicated|sentinel; V313 --variant failover,
 * --fault failover): the master's replication is held across A's
 * acquire, so A's lock lives on the master alone; at A's first write (held there) the master is
 * SIGKILLed and a replica promoted; B takes the lock on the new master and writes (held there);
 * A is let go and finishes. A helper that made sure its lock reached a replica before acting (SET
 * then WAIT on the same connection, result checked) never gets there: its job ends denied, which
 * is judged (no write after B's). Records FailoverRecords.failover.
 *
 * Explored (--explore --topology replicated|sentinel, a point's fault "failover"): the same, with A
 * stopped at the point's boundary of its job instead of its first write — a command run on the
 * master with its reply withheld, or a write recorded with its receipt withheld — and A's store
 * traffic held at its proxy from the kill until B wrote (A's client reconnecting and re-sending
 * what the kill cut off must not race B to the promoted node). A whose job ended before the
 * boundary is recorded as such (`failoverCannotLand`, its not-applicable rule, names the point not
 * applicable) and nothing fails over.
 */
import type { EffectRecord } from '../src/core/resource.ts';
import type { CallOutcome, Holder } from '../src/holder/holder.ts';
import type { FailoverLoss, NodeLock } from '../src/judging/failover-loss.ts';
import { armPoint } from '../src/oracle/arm-point.ts';
import { boundaryLabel, pointInWords } from '../src/oracle/explore-point.ts';
import type { Scenario } from '../src/oracle/scenario.ts';
import { latchStop, type Stop } from '../src/faults/stops.ts';
import type { StoreTopology } from '../src/stores/topology.ts';
import type { WireProxy } from '../src/wire/proxy.ts';
import { failOver, failoverOnceLocked, holdReplication, lockOnNodes, replicatedTopology } from './failover.ts';
import type { FaultFlow, FlowHolders, FlowParams, FlowRecords } from './fault-flow.ts';
import { runJobUntilFirstEffect } from './run-job-until-effect.ts';
import type { PointStop } from './stop-landing.ts';

/** A's run with replication held, the lock on every node at the failover, the failover, and B on the new master. */
export interface FailoverObservation {
  /** A reached its first write (held there); else its job ended (denied) first: `aEnded`. */
  aReached: boolean;
  aEnded: CallOutcome | null;
  /** The lock on every data node just before the master was killed. */
  nodes: NodeLock[];
  /** Harness ms until which A's lease surely lived by the master's clock (its PTTL read at the failover); null: the master held no key of A's then. */
  aLeaseUntil: number | null;
  /** Replication bytes the replicas were kept from (A's writes on the master among them). */
  heldBytes: number;
  killed: string;
  promoted: string;
  how: string;
  promotedAt: number;
  bWrote: boolean;
  bAttempts: number;
}

/** What the flow saw. */
export interface FailoverRecords extends FlowRecords {
  failover?: FailoverObservation;
}

/**
 * The flow: before the holders start, only its not-applicable rule (a master with replicas to
 * fail over to, else a usage error); the replication is held once B ran alone. Armed once locked
 * (V315): the replication held from now, before A leads; landed with A held at its first write or,
 * at an explored point, with its reply withheld (scenarios/failover.ts failoverOnceLocked).
 */
export const FAILOVER_FLOW: FaultFlow<FailoverRecords, FailoverLoss> = {
  async prepare(s, p) {
    const why = s.point ? `--explore --topology ${s.store.topology?.name}` : '--variant failover';
    const topology = replicatedTopology(s, why);
    return { aConnects: {}, play: (holders) => playFailover(s, p, topology, holders) };
  },
  onceLocked: {
    holdsAtPoint: 'hold-reply',
    arm: (s, p, why) => failoverOnceLocked(s, why, p.timeout),
  },
};

async function playFailover(
  s: Scenario,
  p: FlowParams,
  topology: StoreTopology,
  { a, b, wireA }: FlowHolders,
): Promise<FailoverRecords> {
  const o: FailoverRecords = {};
  const replication = await holdReplication(s, topology, p.timeout);
  const stop = stopOfA(s, a, wireA);
  s.progress(`A runs the job once, its master's replication held; A stopped at ${stop.what}`);
  const aJob = a.call('job');
  const first = await s.within(
    Promise.race([stop.reached.then(() => 'reached' as const), aJob.then(() => 'ended' as const)]),
    p.timeout,
  );
  const aReached = first === 'reached';
  const point = s.point;
  if (point) {
    const label = boundaryLabel(point.boundary);
    const since = s.now();
    o.stop = {
      kind: 'point',
      landed: first === 'reached' ? 'held' : (first ?? 'timeout'),
      label,
      words: pointInWords(point),
      missed: stop.missed,
      since,
      fault: point.fault,
    };
    if (!aReached) {
      // The boundary was never reached (A took another path, or refused its lock first): nothing to fail over at.
      stop.release();
      replication.lift();
      o.aResumed = { job: (await s.within(aJob, p.timeout)) ?? null };
      return o;
    }
  }
  // A's lease by the master's own clock: B must take the lock inside it, or the lease's lapse let B in, not the failover.
  const { nodes, masterLeaseUntil: aLeaseUntil } = await lockOnNodes(
    s,
    topology,
    'at the failover: the lock on every node',
  );
  // An explored point: A's client reconnects when the kill cuts its connection; what it re-sends waits until B wrote.
  const aCutOff = point && wireA ? wireA.blackhole() : undefined;
  const failover = await failOver(s, topology, p.timeout);
  const heldBytes = replication.lift();
  const retryEvery = Math.max(5, Math.round(p.ttl / 10));
  s.progress(`B runs the job on the promoted master ${failover.promoted}`);
  const bIn = await runJobUntilFirstEffect(b, p.timeout, retryEvery);
  o.failover = {
    aReached,
    aEnded: first === 'ended' ? ((await aJob) ?? null) : null,
    nodes,
    aLeaseUntil,
    heldBytes,
    killed: failover.killed,
    promoted: failover.promoted,
    how: failover.how,
    promotedAt: failover.promotedAt,
    bWrote: bIn.job !== undefined,
    bAttempts: bIn.attempts,
  };
  stop.release();
  aCutOff?.lift();
  if (aReached) o.aResumed = { job: (await s.within(aJob, p.timeout)) ?? null };
  bIn.latch.release();
  if (bIn.job) await s.within(bIn.job, p.timeout);
  return o;
}

/** Where A is stopped for the failover: at its first write (--variant failover), or at the explored point's boundary. */
function stopOfA(s: Scenario, a: Holder, wireA: WireProxy | undefined): Stop {
  const point = s.point;
  // A command's reply withheld (it ran on the master), or a write's receipt withheld (it was recorded).
  if (point) return armPoint({ ...point, fault: 'hold-reply' }, a, wireA, s);
  return latchStop(a.holdNextEffect(), 'its first write', "A's job ended before its first write");
}

/**
 * An explored failover that cannot land where it was put: A's job ended before the boundary with
 * no write (its own check refused the lock: a WAIT that saw no replica), or A had released its
 * lock by then (the master held no key when it was killed). Pure: the oracle's judge asks it.
 */
export function failoverCannotLand(
  stop: PointStop | undefined,
  failover: FailoverObservation | undefined,
  effects: readonly EffectRecord[],
): string | undefined {
  if (stop?.fault !== 'failover') return undefined;
  if (stop.landed === 'ended' && !effects.some((e) => e.holder === 'A'))
    return `A's job ended before ${stop.label} without a write (it refused its lock first), so a failover there cannot land; the boundaries A did reach judge it`;
  const master = failover?.nodes.find((n) => n.node === failover.killed);
  if (failover?.aReached && master && !master.exists)
    return `the master held no lock at ${stop.label} (A had released it), so the failover there had no lock of A's to lose`;
  return undefined;
}
