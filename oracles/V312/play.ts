/**
 * V312's scenario: P runs the job and is held at its first write (inside its critical section,
 * holding the lock); then A runs the same job to the end, behind a pass-through wire proxy that
 * shows whether it tried the lock (on a file store, A's filesystem calls on the lock's path show
 * it). Under --explore, A starts first and is held at its point while P takes the lock. Records
 * what happened; judges nothing.
 */
import type { ParamValues } from '../../src/core/params.ts';
import { callText } from '../../src/holder/fs-boundaries.ts';
import { throwIfTargetThrew } from '../../src/holder/holder.ts';
import { armPoint } from '../../src/oracle/arm-point.ts';
import type { ObservedLock, Scenario } from '../../src/oracle/scenario.ts';
import type { LockReading, V312Observations } from './observations.ts';
import type { v312Params } from './params.ts';

export async function playV312(s: Scenario, p: ParamValues<typeof v312Params>): Promise<V312Observations> {
  // A talks to the store through a pass-through wire proxy, so the run can show A really tried
  // the lock (a job that returns or throws before contending would make 0 writes and prove nothing);
  // a file store has no wire: A's filesystem calls on the lock's path show it.
  const wireA = await s.wireWhereCommands('A');
  const [holderP, a] = await Promise.all([s.holder('P'), s.holder('A', wireA ? { url: wireA.url } : {})]);
  // Where the store shows the lock itself (a Redis key), it is read before and after A's job.
  const readable = s.lockUnreadable === undefined;
  const observed: V312Observations = { lock: { key: s.lockKey, readable }, point: null, p: null, a: null };
  // On Postgres the lock must show in pg_locks as a granted advisory lock.
  const pgLocks = async (label: string) =>
    s.view().sessionLocks ? (await s.observeSessionLocks(label)).filter((l) => l.granted) : null;

  // An explored point: A starts first and is held at its boundary while P takes the lock.
  const point = s.point;
  const stop = point ? armPoint(point, a, wireA, s) : undefined;
  const tries: string[] = [];
  const touchesLock = (text: string, args: readonly string[]) =>
    s.family.commands.touches({ text, args }, s.lockLocation);
  let watching = true;
  const stopWatching = wireA
    ? wireA.on((event) => {
        if (event.type === 'command' && touchesLock(event.command.text, event.command.args))
          tries.push(event.command.text);
      })
    : () => (watching = false);
  if (!wireA)
    s.fsBoundaries('A').observe((call) => {
      if (watching && call.phase === 'call' && touchesLock(callText(call), [])) tries.push(callText(call));
    });
  const aJob = stop ? a.call('job') : undefined;
  if (point && stop && aJob) {
    const first = await s.within(
      Promise.race([stop.reached.then(() => 'held' as const), aJob.then(() => 'ended' as const)]),
      p.timeout,
    );
    observed.point = { at: point, first: first ?? null, missed: stop.missed, lockThen: null };
    // Only A has run: a lock the store shows now is A's, and P cannot take it while A is held here.
    if (first === 'held')
      observed.point.lockThen = {
        key: readable ? reading(await s.observeLock('A held at the point')) : null,
        sessionLocks: await pgLocks('A held at the point'),
      };
    if (first !== 'held') {
      stop.release();
      stopWatching();
      await s.within(aJob, p.timeout);
      return observed;
    }
  }

  s.progress(`P runs the job and is held at its first write${stop ? ' (A is held at the point)' : ''}`);
  const pFirst = holderP.holdNextEffect();
  const pJob = holderP.call('job');
  const pEnded = await s.within(Promise.race([pFirst.reached.then(() => undefined), pJob]), p.timeout);
  // P runs alone on a free lock unless A, held at an explored point, may already hold it.
  if (!stop) throwIfTargetThrew('P', 'job', pEnded, 'before its first write, running alone on a free lock');
  if (!pFirst.isReached) {
    stop?.release();
    stopWatching();
    if (aJob) await s.within(aJob, p.timeout);
    return observed;
  }
  const keyBefore = readable ? reading(await s.observeLock('P holds the lock')) : null;
  observed.p = {
    heldAt: pFirst.hit!.t,
    key: keyBefore,
    notFound: s.lockNotFound('while P held the lock', undefined, keyBefore?.free),
    sessionLocks: await pgLocks('P holds the lock'),
  };

  s.progress(stop ? "A's held command goes on while P holds the lock" : 'A runs the job while P holds the lock');
  stop?.release();
  const aEnd = await s.within(aJob ?? a.call('job'), p.timeout);
  stopWatching();
  // A job that throws without ever asking for the lock broke before the scenario could exercise
  // it: ERROR naming the member, as for a throwing acquire. A throw after it asked (a denial a
  // withLock helper throws, an aborted job) is behaviour, and judged.
  if (tries.length === 0) throwIfTargetThrew('A', 'job', aEnd, 'before it sent any command on the lock');
  const keyAfter = readable ? reading(await s.observeLock("A's job ended")) : null;
  const locksAfter = await pgLocks("A's job ended");
  observed.a = { job: aEnd ?? null, tries, key: keyAfter, sessionLocks: locksAfter, readAt: s.now() };
  pFirst.release();
  await s.within(pJob, p.timeout);
  return observed;
}

/** A read of the lock as JSON keeps it: the state and when it was sent (its live-until is the judge's to derive). */
function reading({ where, exists, value, pttlMs, sentAt, free }: ObservedLock): LockReading {
  return { where, exists, value, pttlMs, sentAt, ...(free ? { free } : {}) };
}
