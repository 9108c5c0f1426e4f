/**
 * V313 --variant pause-in-acquire (--topology redlock:N): A stopped in the middle of its acquire.
 * Every master's reply to A is kept at A's own link to it until each master has answered (A's
 * requests went through: its keys are set on every node), A is SIGSTOPped, and the replies are
 * delivered into its sockets while it is stopped. A stays stopped until its keys lapsed and B took
 * the lock and wrote (held there); then A resumes, reads the replies, and its acquire returns — a
 * quorum won, with its validity already spent. A helper that checks that validity before acting
 * does nothing; one that acts on what acquire returned writes beside B. Records
 * V313Observations.acquireStop. An explored point pause-in-acquire (--explore --topology redlock:N, at
 * A's first command on the lock key) is played by this same flow.
 */
import type { ParamValues } from '../../src/core/params.ts';
import type { Holder } from '../../src/holder/holder.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import { quorumOf, redlockMasters, type HolderLinks } from '../../scenarios/redlock-links.ts';
import { runJobUntilFirstEffect } from '../../scenarios/run-job-until-effect.ts';
import type { V313Observations } from './observations.ts';
import type { v313Params } from './params.ts';
import { readQuorum, readQuorumAtWrites, untilNoMasterHoldsIt } from './quorum-reading.ts';

export async function playPauseInAcquire(
  s: Scenario,
  p: ParamValues<typeof v313Params>,
  a: Holder,
  b: Holder,
  aLinks: HolderLinks,
  o: V313Observations,
): Promise<void> {
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
    bWhileStopped: null as NonNullable<V313Observations['acquireStop']>['bWhileStopped'],
    atAWrites: readQuorumAtWrites(s, a),
  });
  if (!inFlight) {
    o.aResumed = { job: (await s.within(aJob, p.timeout)) ?? null };
    return;
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
}
