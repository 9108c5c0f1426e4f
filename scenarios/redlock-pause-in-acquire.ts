/**
 * The Redlock pause-in-acquire flow (--topology redlock:N; V313 --variant pause-in-acquire, --fault
 * pause-in-acquire): A stopped in the middle of its acquire.
 * Every master's reply to A is kept at A's own link to it until each master has answered (A's
 * requests went through: its keys are set on every node), A is SIGSTOPped, and the replies are
 * delivered into its sockets while it is stopped. A stays stopped until its keys lapsed and B took
 * the lock and wrote (held there); then A resumes, reads the replies, and its acquire returns — a
 * quorum won, with its validity already spent. A helper that checks that validity before acting
 * does nothing; one that acts on what acquire returned writes beside B. Records
 * AcquireStopRecords.acquireStop. An explored point pause-in-acquire (--explore --topology redlock:N, at
 * A's first command on the lock key) is played by this same flow.
 */
import type { Holder } from '../src/holder/holder.ts';
import type { Scenario } from '../src/oracle/scenario.ts';
import type { FaultFlow, FlowParams, FlowRecords } from './fault-flow.ts';
import { flowThroughALinks, quorumOf, redlockMasters, type HolderLinks } from './redlock-links.ts';
import {
  readQuorum,
  readQuorumAtWrites,
  untilNoMasterHoldsIt,
  type QuorumAtWrite,
  type QuorumReading,
} from './redlock-reading.ts';
import { runJobUntilFirstEffect } from './run-job-until-effect.ts';

/**
 * Every master's reply to A's acquire kept from A until each had sent one, A then SIGSTOPped and
 * the replies delivered into its sockets; A stays stopped until its keys lapsed and B took the lock
 * and wrote.
 */
export interface AcquireStopObservation {
  quorum: number;
  /** Reply bytes each master's link kept before A was stopped (every master answered A's acquire). */
  repliesKept: Record<string, number>;
  /** Whether every master's reply came within --timeout (else A was never stopped). */
  repliesInFlight: boolean;
  /** Harness ms A was SIGSTOPped (null: it was not). */
  stoppedAt: number | null;
  /** The masters just after A was stopped: its keys there. */
  atStop: QuorumReading | null;
  /** B's tries while A was stopped, and the masters at B's first write. */
  bWhileStopped: { wrote: boolean; attempts: number; atFirstWrite: QuorumReading | null; aStopped: boolean } | null;
  /** The masters before each of A's writes after it resumed. */
  atAWrites: QuorumAtWrite[];
}

/** What the flow saw. */
export interface AcquireStopRecords extends FlowRecords {
  acquireStop?: AcquireStopObservation;
}

/** The flow: A's own links to every master, started before A is. */
export const PAUSE_IN_ACQUIRE_FLOW: FaultFlow<AcquireStopRecords> = flowThroughALinks(
  '--variant pause-in-acquire',
  playPauseInAcquire,
);

async function playPauseInAcquire(
  s: Scenario,
  p: FlowParams,
  a: Holder,
  b: Holder,
  aLinks: HolderLinks,
): Promise<AcquireStopRecords> {
  const o: AcquireStopRecords = {};
  const { masters } = redlockMasters(s, '--variant pause-in-acquire');
  const quorum = quorumOf(masters.length);
  s.phase('scenario', "A stopped with its acquire's replies in flight; B contends");
  s.progress("A runs the job; every master's reply to it is kept until each has answered");
  const retryEvery = Math.max(5, Math.round(p.ttl / 10));
  // B's solo release returned once a majority answered; A must not meet its key on the rest.
  await untilNoMasterHoldsIt(s, p.timeout, retryEvery);
  const replies = aLinks.holdReplies();
  const aJob = a.call('job');
  const first = await s.within(
    Promise.race([replies.reached.then(() => 'replies' as const), aJob.then(() => 'ended' as const)]),
    p.timeout,
  );
  const inFlight = first === 'replies';
  const stop = inFlight ? await a.pause() : undefined;
  const repliesKept = replies.kept();
  replies.lift(); // into A's sockets, while A is stopped
  const x = (o.acquireStop = {
    quorum,
    repliesKept,
    repliesInFlight: inFlight,
    stoppedAt: stop?.appliedAt ?? null,
    atStop: inFlight ? await readQuorum(s, "A stopped, its acquire's replies in flight: every master") : null,
    bWhileStopped: null as AcquireStopObservation['bWhileStopped'],
    atAWrites: readQuorumAtWrites(s, a),
  });
  if (!inFlight) {
    o.aResumed = { job: (await s.within(aJob, p.timeout)) ?? null };
    return o;
  }
  s.progress(
    `A stopped (SIGSTOP) inside its acquire; waiting for its ${p.ttl} ms keys to lapse and B to take the lock`,
  );
  const bIn = await runJobUntilFirstEffect(b, p.timeout, retryEvery);
  x.bWhileStopped = {
    wrote: bIn.job !== undefined,
    attempts: bIn.attempts,
    atFirstWrite: bIn.job ? await readQuorum(s, 'B at its first write: the lock on every master') : null,
    aStopped: a.isPaused,
  };
  const stoppedMs = a.resume();
  s.progress(`A resumed after ${stoppedMs.toFixed(0)} ms`);
  o.aResumed = { job: (await s.within(aJob, p.timeout)) ?? null };
  bIn.latch.release();
  if (bIn.job) await s.within(bIn.job, p.timeout);
  return o;
}
