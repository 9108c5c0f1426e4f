/**
 * V313 --variant shutdown: A's graceful shutdown begins while its job runs, as a deploy stops a
 * worker — the target's own close member (--shutdown close) or SIGTERM to A's process (--shutdown
 * sigterm, for a target that handles it). A, at its first write, is told to shut down and let go;
 * it is held at its next write (its receipt withheld: the process runs, its timers and renewals
 * too) while B tries to take the lock, until B writes or until 2 × --ttl after A was held there
 * (A had gone on past its shutdown's start by then, so a lease not renewed since has lapsed; the
 * harness's or A's own lag under load does not shorten the window). A's lock is read just before
 * the shutdown begins: a PASS needs the shutdown to take effect inside that lease, not after a
 * lapse the load caused. Then A is let go and runs on; B, if it had not yet, tries again until it
 * writes. Records what happened; judges nothing.
 */
import type { ParamValues } from '../../src/core/params.ts';
import type { CallOutcome, Holder } from '../../src/holder/holder.ts';
import type { Latch } from '../../src/holder/latch.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import { readLease, readLeaseAtWrites } from '../../scenarios/lease-at-writes.ts';
import type { BTries, V313Observations } from './observations.ts';
import type { v313Params } from './params.ts';

type Params = ParamValues<typeof v313Params>;

export async function shutDownA(
  s: Scenario,
  p: Params,
  holders: { a: Holder; b: Holder },
  first: Latch,
  aJob: Promise<CallOutcome>,
  retryEvery: number,
  o: V313Observations,
): Promise<void> {
  const { a, b } = holders;
  const by = p.shutdown === 'sigterm' ? 'sigterm' : 'close';
  const unreadable = s.lockUnreadable;
  const aLockAtStart = unreadable === undefined ? await s.observeLock("A's lock as its shutdown begins") : undefined;
  const at = s.now();
  s.progress(`A's shutdown begins (${p.shutdown === 'close' ? 'its close() called' : 'SIGTERM'}) while its job runs`);
  // close: the request reaches A before its receipt does, so close runs before the job goes on.
  const closing = a.shutdown(by, p.timeout);
  const aNext = a.holdNextEffect();
  first.release();
  const next = await s.within(
    Promise.race([aNext.reached.then(() => 'held' as const), aJob.then(() => 'ended' as const)]),
    p.timeout,
  );
  const shutdown: NonNullable<V313Observations['shutdown']> = { by, at, aNextWrite: next ?? 'timeout' };
  if (aLockAtStart) {
    const { where, exists, value, pttlMs, sentAt, liveUntil } = aLockAtStart;
    shutdown.aLockAtStart = { where, exists, value, pttlMs, sentAt, liveUntil };
  } else if (unreadable !== undefined) shutdown.aLockAtStart = { unreadable };
  o.shutdown = shutdown;
  const bLatch = b.holdNextEffect();
  const bJobs: Array<Promise<CallOutcome>> = [];
  if (next === 'held') {
    const heldAt = s.now();
    shutdown.heldAt = heldAt;
    s.progress(`A is held at its next write; B tries for the lock for ${2 * p.ttl} ms from then`);
    shutdown.bWhileHeld = await bTries(s, b, bLatch, bJobs, heldAt + 2 * p.ttl, retryEvery);
    if (!shutdown.bWhileHeld.wrote && s.lockUnreadable === undefined) {
      const { where, exists, value, pttlMs, sentAt } = await s.observeLock('A held at its next write, B denied');
      shutdown.aLockAfter = { where, exists, value, pttlMs, sentAt };
    }
  }
  // B wrote: B's lock is read now, and before each of A's writes from here on is accepted.
  const bLease = shutdown.bWhileHeld?.wrote
    ? {
        atFirstWrite: await readLease(s, 'B', "B's lock at its first write (B held there)"),
        atAWrites: readLeaseAtWrites(s, a, 'B'),
      }
    : undefined;
  aNext.release();
  o.aResumed = { job: (await s.within(aJob, p.timeout)) ?? null };
  if (!shutdown.bWhileHeld?.wrote) shutdown.bAfter = await bTries(s, b, bLatch, bJobs, s.now() + p.timeout, retryEvery);
  if (bLease) o.bLease = bLease;
  bLatch.release();
  await Promise.all(bJobs.map((job) => s.within(job, p.timeout)));
  const outcome = await s.within(closing, p.timeout);
  shutdown.outcome = outcome ?? null;
}

/** B's jobs, one after another, until one reaches its first write (held there) or `until` (harness ms) passed. */
async function bTries(
  s: Scenario,
  b: Holder,
  latch: Latch,
  jobs: Array<Promise<CallOutcome>>,
  until: number,
  retryEvery: number,
): Promise<BTries> {
  let attempts = 0;
  let lastDeniedAt: number | null = null;
  do {
    attempts++;
    const began = s.now();
    const job = b.call('job');
    jobs.push(job);
    const first = await Promise.race([latch.reached.then(() => 'write' as const), job.then(() => 'ended' as const)]);
    if (first === 'write') return { wrote: true, attempts, lastDeniedAt };
    lastDeniedAt = began;
    await new Promise((resolve) => setTimeout(resolve, retryEvery));
  } while (s.now() < until);
  return { wrote: false, attempts, lastDeniedAt };
}
