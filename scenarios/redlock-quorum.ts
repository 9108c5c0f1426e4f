/**
 * The Redlock quorum flow (--topology redlock:N; V313 --variant quorum, --fault node-restart or
 * master-clock-ahead): Redlock's own failure cases, on real masters. A's requests are kept from a
 * minority of the masters across its acquire (A cut off from them), so its lock lives on a bare
 * majority; at A's first write (held there) one master of that majority is faulted (--node-fault:
 * restarted empty at once, restarted only after more than the TTL, or its clock stepped ahead past
 * the TTL); B tries for half of what is left of A's lease; A's cut-off ends and A is let go and
 * finishes. When B wrote nothing inside that window it tries again after A's job, the node back.
 * Each of A's writes is preceded by a read of every master. Explored (a point's fault node-restart
 * or master-clock-ahead): the same, the master faulted at the point's write of A's job
 * (./redlock-quorum-point.ts). Records QuorumRecords.quorum.
 */
import type { Holder } from '../src/holder/holder.ts';
import type { Scenario } from '../src/oracle/scenario.ts';
import type { FaultFlow, FlowParams, FlowRecords } from './fault-flow.ts';
import { jobTries } from './job-tries.ts';
import {
  nodeFaultInWords,
  startNodeFault,
  type NodeFault,
  type NodeFaultKind,
  type NodeFaultOutcome,
} from './node-faults.ts';
import { flowThroughALinks, quorumOf, redlockMasters, type HolderLinks } from './redlock-links.ts';
import { holdAtPointWrite, nodeFaultOfPoint } from './redlock-quorum-point.ts';
import {
  liveOnUntil,
  majorityToken,
  readQuorum,
  readQuorumAtWrites,
  untilNoMasterHoldsIt,
  type QuorumAtWrite,
  type QuorumReading,
} from './redlock-reading.ts';

/**
 * A cut off from a minority of the masters across its acquire, so its lock lives on a bare
 * majority; at A's first write (held there) one of that majority is faulted (--node-fault); B
 * tries inside A's lease; A is let go.
 */
export interface QuorumObservation {
  quorum: number;
  /** The masters A's requests were kept from across its acquire. */
  cutOff: string[];
  fault: NodeFault;
  /** The masters as A sat at its first write, before the fault. */
  atAFirstWrite: QuorumReading;
  /** The masters once the fault had landed (a restart: the node up again; restart-late: the node down). */
  afterFault: QuorumReading | null;
  outcome: NodeFaultOutcome | null;
  /** Harness ms until which A's token lived on a majority by the PTTLs read at its first write; null: it never did. */
  aLeaseUntil: number | null;
  /** Until when B tried inside A's lease (half the time A's lease had left once the fault landed). */
  bWindowUntil: number;
  /** B's tries inside that window: whether one wrote, how many, and the masters at its first write. */
  bInWindow: { wrote: boolean; attempts: number; atFirstWrite: QuorumReading | null };
  /** B's tries after A's job ended (when none wrote inside the window): whether one wrote. */
  bLater?: { wrote: boolean; attempts: number };
  /** The masters before each of A's writes once it was let go. */
  atAWrites: QuorumAtWrite[];
}

/** What the flow saw. */
export interface QuorumRecords extends FlowRecords {
  quorum?: QuorumObservation;
}

/** The flow: A's own links to every master, started before A is. */
export const QUORUM_FLOW: FaultFlow<QuorumRecords> = flowThroughALinks('--variant quorum', playQuorum);

/** The fault --node-fault names (or an explored point's), on the last master of A's bare majority. */
export function quorumFault(p: FlowParams, node: string, kind = p.nodeFault as NodeFaultKind): NodeFault {
  if (kind === 'restart') return { node, kind: 'restart', ms: 0 };
  // Longer than the TTL by a quarter: no lock the node forgot can be live elsewhere when it returns.
  return { node, kind, ms: Math.round(p.ttl * 1.25) };
}

async function playQuorum(
  s: Scenario,
  p: FlowParams,
  a: Holder,
  b: Holder,
  aLinks: HolderLinks,
): Promise<QuorumRecords> {
  const o: QuorumRecords = {};
  const { topology, masters } = redlockMasters(s, '--variant quorum');
  const quorum = quorumOf(masters.length);
  const majority = masters.slice(0, quorum).map((n) => n.name);
  const cutOff = masters.slice(quorum).map((n) => n.name);
  const fault = quorumFault(p, majority[majority.length - 1]!, nodeFaultOfPoint(s.point));
  const retryEvery = Math.max(5, Math.round(p.ttl / 10));

  // B's solo release returned once a majority answered; A must not meet its key on the rest.
  await untilNoMasterHoldsIt(s, p.timeout, retryEvery);
  const cut = aLinks.cutOff(cutOff);
  s.progress(
    `A runs the job cut off from ${cutOff.join(', ') || 'no master'}: its lock can win ${majority.join(', ')}`,
  );
  s.phase('scenario', `A on a bare majority; ${nodeFaultInWords(fault)}; B contends`);
  // An acquire answered by too few of the masters it reaches (one of them refused) waits for the
  // ones it is cut off from: A's tries are bounded, and then its cut-off ends so the attempt returns.
  const aIn = jobTries(a, () => s.now(), retryEvery);
  const aReached = await aIn.until(s.now() + p.timeout);
  o.aFirstWrite = { at: aReached ? aIn.latch.hit!.t : null, attempts: aIn.attempts, lastTry: null };
  if (!aReached || !aIn.job) {
    await readQuorum(s, 'A did not reach its first write: every master');
    cut.lift();
    aIn.latch.release();
    if (aIn.pending) await s.within(aIn.pending, p.timeout);
    return o;
  }
  const aJob = aIn.job;
  // An explored point: the master is faulted at the point's write (./redlock-quorum-point.ts), A held there.
  const atPoint = s.point ? await holdAtPointWrite(s, p.timeout, a, aIn.latch, aJob) : undefined;
  const held = atPoint?.held ?? aIn.latch;
  if (atPoint) o.stop = atPoint.stop;
  if (atPoint && atPoint.stop.landed !== 'held') {
    cut.lift();
    held.release();
    o.aResumed = { job: (await s.within(aJob, p.timeout)) ?? null };
    return o;
  }
  const at = atPoint ? `its write ${atPoint.stop.label}` : 'its first write';
  const atAFirstWrite = await readQuorum(s, `A at ${at}: the lock on every master`);
  const aLeaseUntil = liveOnUntil(atAFirstWrite, majorityToken(atAFirstWrite, quorum), quorum);

  const started = startNodeFault(s, topology, fault);
  // A restart-late node stays down while B tries: B is judged against it.
  const outcome = fault.kind === 'restart-late' ? null : ((await s.within(started.done, p.timeout)) ?? null);
  const afterFault = fault.kind === 'restart-late' ? null : await readQuorum(s, 'the fault landed: every master');
  const bWindowUntil = s.now() + Math.max(0, ((aLeaseUntil ?? s.now()) - s.now()) / 2);
  s.progress(`B tries for the lock for ${(bWindowUntil - s.now()).toFixed(0)} ms, inside A's lease`);
  const tries = jobTries(b, () => s.now(), retryEvery);
  const wrote = await tries.until(bWindowUntil);
  const atBFirst = wrote ? await readQuorum(s, 'B at its first write: the lock on every master') : null;
  const late = fault.kind === 'restart-late' ? await readQuorum(s, "the end of B's window: every master") : null;
  const q: QuorumObservation = (o.quorum = {
    quorum,
    cutOff,
    fault,
    atAFirstWrite,
    afterFault: afterFault ?? late,
    outcome,
    aLeaseUntil,
    bWindowUntil,
    bInWindow: { wrote, attempts: tries.attempts, atFirstWrite: atBFirst },
    atAWrites: readQuorumAtWrites(s, a),
  });
  cut.lift();
  held.release();
  o.aResumed = { job: (await s.within(aJob, p.timeout)) ?? null };
  q.outcome = (await s.within(started.done, p.timeout)) ?? null;
  if (!wrote) {
    s.progress("B tries again after A's job, the node back");
    const before = tries.attempts;
    q.bLater = { wrote: await tries.until(s.now() + p.timeout), attempts: tries.attempts - before };
  }
  tries.latch.release();
  if (tries.job) await s.within(tries.job, p.timeout);
  return o;
}
