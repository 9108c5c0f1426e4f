/**
 * What the other holders do around A's stop (--contender), and A running on once it is let go:
 * - hold / come-and-go: B takes the lock and writes while A is stopped (come-and-go: B then
 *   finishes and its lock is gone before A resumes; a third holder C comes while A sits at its
 *   next write);
 * - after-lift: A's lease lapses in the store while A is stopped; A resumes; only then B contends.
 * Each step records what it saw in the observations; nothing here judges.
 */
import type { ParamValues } from '../../src/core/params.ts';
import type { CallOutcome, Holder } from '../../src/holder/holder.ts';
import type { Latch } from '../../src/holder/latch.ts';
import type { ObservedLock, Scenario } from '../../src/oracle/scenario.ts';
import { runJobUntilFirstEffect } from '../../scenarios/run-job-until-effect.ts';
import { readLease, readLeaseAtWrites } from '../../scenarios/lease-at-writes.ts';
import type { KeyReading, V313Observations } from './observations.ts';
import type { v313Params } from './params.ts';
import type { StoppedA } from '../../scenarios/stop-landing.ts';

const AT_FIRST_WRITE = 'B in its critical section (held at its first write)';

/** A stopped after its first write, its job still running, and the holders that contend. */
export interface Contest {
  s: Scenario;
  p: ParamValues<typeof v313Params>;
  a: Holder;
  b: Holder;
  /** come-and-go's third holder. */
  c: Holder | undefined;
  aJob: Promise<CallOutcome>;
  stopped: StoppedA;
  /** How long a denied job waits before its next try (ms). */
  retryEvery: number;
  o: V313Observations;
}

/** hold / come-and-go: B takes the lock while A is stopped. */
export async function contendWhileStopped(x: Contest): Promise<void> {
  const { s, p, a, b, c, stopped, o } = x;
  s.progress(
    `A ${stopped.stop.what} after its first write; waiting for its ${p.ttl} ms lease to lapse and B to take the lock`,
  );
  const bIn = await runJobUntilFirstEffect(b, p.timeout, x.retryEvery);
  o.bWhileStopped = { wrote: bIn.job !== undefined, attempts: bIn.attempts, aStopped: !stopped.stop.isReleased };
  // hold: B's lock is read now, and before each of A's writes from here on is accepted.
  const bLease =
    p.contender === 'hold' && bIn.job
      ? { atFirstWrite: await readLease(s, 'B', AT_FIRST_WRITE), atAWrites: readLeaseAtWrites(s, a, 'B') }
      : undefined;
  if (p.contender === 'come-and-go' && bIn.job) await bComesAndGoes(x, bIn.latch, bIn.job);
  const aNext = p.contender === 'come-and-go' ? a.holdNextEffect() : undefined;
  lift(x);
  if (aNext && c) await thirdHolderArrives(x, aNext, c);
  await aRunsOn(x);
  if (bLease) o.bLease = bLease;
  bIn.latch.release();
  if (bIn.job) await s.within(bIn.job, p.timeout);
}

/** after-lift: A's lease lapses in the store while A is stopped; A resumes; only then B contends. */
export async function contendAfterLift(x: Contest): Promise<void> {
  const { s, p, a, b, aJob, stopped, o } = x;
  s.progress(`A ${stopped.stop.what} after its first write; waiting for its ${p.ttl} ms lease to lapse in the store`);
  const lapsed = await s.waitUntil(async () => !(await s.readLock()).exists, p.timeout, x.retryEvery);
  const seen = await s.observeLock('A stopped; its lease lapsed?');
  o.aLeaseLapsed = { lapsed, seen: reading(seen), readAt: s.now(), aStopped: !stopped.stop.isReleased };
  const aNext = a.holdNextEffect();
  lift(x);
  const first = await s.within(
    Promise.race([aNext.reached.then(() => 'write' as const), aJob.then(() => 'ended' as const)]),
    p.timeout,
  );
  s.progress(
    `B runs the job after A's fault lifted (${first === 'write' ? 'A is held at its next write' : "A's job ended"})`,
  );
  const bIn = await runJobUntilFirstEffect(b, p.timeout, x.retryEvery);
  o.bAfterLift = { wrote: bIn.job !== undefined, attempts: bIn.attempts, aAtNextWrite: first === 'write' };
  aNext.release();
  await aRunsOn(x);
  bIn.latch.release();
  if (bIn.job) await s.within(bIn.job, p.timeout);
}

/** come-and-go: B, held at its first write, is let go: it finishes its job and its lock is gone before A resumes. */
async function bComesAndGoes({ s, p, stopped, retryEvery, o }: Contest, bLatch: Latch, bJob: Promise<CallOutcome>) {
  const during = await s.observeLock(AT_FIRST_WRITE);
  bLatch.release();
  const bEnd = await s.within(bJob, p.timeout);
  const gone =
    bEnd !== undefined && (await s.waitUntil(async () => !(await s.readLock()).exists, p.timeout, retryEvery));
  const after = await s.observeLock("B's job ended");
  o.bCameAndWent = {
    during: reading(during),
    job: bEnd ?? null,
    gone,
    after: reading(after),
    aStopped: !stopped.stop.isReleased,
  };
}

/**
 * come-and-go: A resumed with nobody holding the lock. If A writes again, it is held at that
 * write while a third holder C runs the job: C denied shows A silently re-took the lock.
 */
async function thirdHolderArrives(x: Contest, aNext: Latch, c: Holder) {
  const { s, p, aJob, o } = x;
  const first = await s.within(
    Promise.race([aNext.reached.then(() => 'write' as const), aJob.then(() => 'ended' as const)]),
    p.timeout,
  );
  if (first === 'write') {
    const { where, exists, value, free, ino } = await s.observeLock('A resumed and is at its next write');
    o.aNextWrite = { where, exists, value, ...(free ? { free } : {}), ...(typeof ino === 'number' ? { ino } : {}) };
  }
  const cLatch = c.holdNextEffect();
  const cJob = c.call('job');
  const cFirst = await s.within(
    Promise.race([cLatch.reached.then(() => 'write' as const), cJob.then(() => 'ended' as const)]),
    p.timeout,
  );
  o.cTookLock = cFirst === 'write';
  s.note(
    `C arrived ${first === 'write' ? 'while A was at its next write after resuming' : "after A's job ended"} and ${o.cTookLock ? 'took the lock' : 'did not take the lock'}`,
  );
  aNext.release();
  await aRunsOn(x);
  cLatch.release();
  await s.within(cJob, p.timeout);
}

/** Let A go (the stop lifted). */
function lift({ s, stopped }: Contest) {
  stopped.stop.release();
  s.progress(`A resumed after ${(s.now() - stopped.since).toFixed(0)} ms`);
}

/** A runs on to the end of its job (once). */
async function aRunsOn({ s, p, aJob, o }: Contest) {
  if (o.aResumed) return;
  o.aResumed = { job: (await s.within(aJob, p.timeout)) ?? null };
}

function reading({ exists, pttlMs }: ObservedLock): KeyReading {
  return { exists, pttlMs };
}
