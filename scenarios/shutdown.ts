/**
 * A's graceful shutdown at its first write (V313 --variant shutdown): A's graceful shutdown begins while its job runs, as a deploy stops a
 * worker — the target's own close member (--shutdown close) or SIGTERM to A's process (--shutdown
 * sigterm, for a target that handles it). A, at its first write, is told to shut down and let go;
 * it is held at its next write (its receipt withheld: the process runs, its timers and renewals
 * too) while B tries to take the lock, until B writes or until 2 × --ttl after A was held there
 * (A had gone on past its shutdown's start by then, so a lease not renewed since has lapsed; the
 * harness's or A's own lag under load does not shorten the window). A's lock is read just before
 * the shutdown begins: a PASS needs the shutdown to take effect inside that lease, not after a
 * lapse the load caused. Then A is let go and runs on; B, if it had not yet, tries again until it
 * writes. Returns what happened; judges nothing.
 */
import type { CallOutcome, Holder, ShutdownOutcome } from '../src/holder/holder.ts';
import type { Latch } from '../src/holder/latch.ts';
import type { LeaseReading, ReadingAtWrite } from '../src/judging/lease-at-write.ts';
import type { LockState, ObservedLock, Scenario } from '../src/oracle/scenario.ts';
import { readLease, readLeaseAtWrites } from './lease-at-writes.ts';

/** B's tries for the lock: whether one reached its first write, how many, and when the last denied one began (harness ms). */
export interface BTries {
  wrote: boolean;
  attempts: number;
  lastDeniedAt: number | null;
}

/**
 * How and when (harness ms) A's shutdown began, and A's lock as read just before (or why the store
 * cannot show it; absent in runs recorded before it was read); whether A then reached its next
 * write (held there, from `heldAt`), ended its job, or neither within --timeout; B's tries while A
 * was held there (until 2 × --ttl after `heldAt`) and, when none wrote, the lock as read then and
 * B's tries after A was let go; how the shutdown itself ended (null: not within --timeout).
 */
export interface ShutdownObservation {
  by: 'close' | 'sigterm';
  at: number;
  aLockAtStart?:
    Pick<ObservedLock, 'where' | 'exists' | 'value' | 'pttlMs' | 'sentAt' | 'liveUntil'> | { unreadable: string };
  aNextWrite: 'held' | 'ended' | 'timeout';
  /** Harness ms A was seen held at its next write: its shutdown had begun inside it by then. */
  heldAt?: number;
  bWhileHeld?: BTries;
  aLockAfter?: Pick<LockState, 'where' | 'exists' | 'value' | 'pttlMs'> & { sentAt: number };
  bAfter?: BTries;
  outcome?: ShutdownOutcome | null;
}

/** What the shutdown step saw: the shutdown, A's job once let go, and (B wrote) B's lease at its first write and at A's writes. */
export interface ShutdownRecords {
  shutdown: ShutdownObservation;
  aResumed: { job: CallOutcome | null };
  bLease?: { atFirstWrite: LeaseReading; atAWrites: ReadingAtWrite[] };
}

/** The run's parameters the step reads (an oracle's params satisfy it). */
export interface ShutdownParams {
  ttl: number;
  timeout: number;
  /** How A's shutdown begins: 'close' (its target's close member) or 'sigterm' (to its process). */
  shutdown: string;
}

export async function shutDownA(
  s: Scenario,
  p: ShutdownParams,
  holders: { a: Holder; b: Holder },
  first: Latch,
  aJob: Promise<CallOutcome>,
  retryEvery: number,
): Promise<ShutdownRecords> {
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
  const shutdown: ShutdownObservation = { by, at, aNextWrite: next ?? 'timeout' };
  if (aLockAtStart) {
    const { where, exists, value, pttlMs, sentAt, liveUntil } = aLockAtStart;
    shutdown.aLockAtStart = { where, exists, value, pttlMs, sentAt, liveUntil };
  } else if (unreadable !== undefined) shutdown.aLockAtStart = { unreadable };
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
  const aResumed = { job: (await s.within(aJob, p.timeout)) ?? null };
  if (!shutdown.bWhileHeld?.wrote) shutdown.bAfter = await bTries(s, b, bLatch, bJobs, s.now() + p.timeout, retryEvery);
  bLatch.release();
  await Promise.all(bJobs.map((job) => s.within(job, p.timeout)));
  const outcome = await s.within(closing, p.timeout);
  shutdown.outcome = outcome ?? null;
  return { shutdown, aResumed, ...(bLease ? { bLease } : {}) };
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
