/**
 * V315's scenario: A leads through its wire proxy (a file store: its filesystem calls are its
 * boundaries); at its first write A is cut off (or, on an
 * --explore run, held at the point with the rest of its traffic blackholed) while its process runs;
 * B leads and writes; the cut lasts --observe ms more, is lifted, and A is watched --observe ms
 * more; then both loops are told to stop. Records what happened; judges nothing.
 */
import { UsageError } from '../../src/core/errors.ts';
import type { ParamValues } from '../../src/core/params.ts';
import { throwIfTargetThrew, type CallOutcome } from '../../src/holder/holder.ts';
import { armPoint } from '../../src/oracle/arm-point.ts';
import { boundaryLabel, pointInWords } from '../../src/oracle/explore-point.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import { readLease, readLeaseAtWrites } from '../../scenarios/lease-at-writes.ts';
import { cutAtPoint, cutOff, type Cut } from './cut.ts';
import type { V315Observations } from './observations.ts';
import type { v315Params } from './params.ts';
import { playV315OnCluster } from './cluster-play.ts';

export async function playV315(s: Scenario, p: ParamValues<typeof v315Params>): Promise<V315Observations> {
  if (s.family.ownNodes) {
    if (p.fault !== 'blackhole' || s.point)
      throw new UsageError(
        `on a cluster A is cut off by a partition of its node from the others: --fault ${p.fault}${s.point ? ' and --explore' : ''} do not apply there (run it without)`,
      );
    return playV315OnCluster(s, p);
  }
  // A file store has no wire: A is cut off at its filesystem calls instead (cut.ts).
  const wireA = s.store.kind === 'fs' ? undefined : await s.wire('A');
  const [a, b] = await Promise.all([s.holder('A', wireA ? { url: wireA.url } : {}), s.holder('B')]);
  let aLoop: Promise<CallOutcome> | undefined;
  let bLoop: Promise<CallOutcome> | undefined;
  const o: V315Observations = {
    aFirstWriteAt: null,
    aLoopReturned: false,
    point: null,
    cut: null,
    bWrote: false,
    bWroteWhileCut: false,
    bLease: null,
    watchedUntil: 0,
  };
  s.progress('A starts its leader loop through its wire proxy');
  const aFirst = a.holdNextEffect();
  const leadingSince = s.now();
  aLoop = a.call('leader');
  const aStarted = await s.within(Promise.race([aFirst.reached.then(() => 'wrote' as const), aLoop]), p.timeout);
  if (aStarted !== 'wrote')
    throwIfTargetThrew('A', 'leader', aStarted, 'before its first write, leading alone with no fault');
  o.aFirstWriteAt = aFirst.hit?.t ?? null;
  o.aLoopReturned = aStarted !== undefined && aStarted !== 'wrote';
  if (!aFirst.isReached) return finish();
  // A at its first write leads: nothing at env.key and no storeKey, the lock is where A's loop took it.
  if (s.family.commands.lockLocations && s.lockUnreadable === undefined && !(await s.readLock()).exists)
    o.inferred = s.inferLockLocation('A', leadingSince) ?? null;

  const point = s.point;
  let cut: Cut;
  if (point) {
    const at = armPoint(point, a, wireA, s.lockKey);
    aFirst.release();
    const first = await s.within(
      Promise.race([at.reached.then(() => 'held' as const), aLoop.then(() => 'ended' as const)]),
      p.timeout,
    );
    const label = boundaryLabel(point.boundary);
    o.point = { label, inWords: pointInWords(point), reached: first ?? 'timeout', missed: at.missed };
    if (first !== 'held') {
      at.release();
      return finish();
    }
    cut = cutAtPoint(s, a, at, wireA, `${label}, ${point.fault}`);
  } else {
    cut = await cutOff(s, a, wireA, p.fault);
  }
  const bFirst = b.holdNextEffect();
  bLoop = b.call('leader');
  aFirst.release();
  s.progress(
    `A cut off ${wireA ? 'at its wire proxy' : 'at its filesystem calls'} (${cut.what}) while it keeps running; waiting for its ${p.ttl} ms lease to lapse and B to lead`,
  );

  const bFirstOrEnd = await s.within(Promise.race([bFirst.reached.then(() => 'wrote' as const), bLoop]), p.timeout);
  // B's loop ended before it ever wrote: a throw there is no denial (a denied replica waits and retries).
  if (bFirstOrEnd !== 'wrote')
    throwIfTargetThrew(
      'B',
      'leader',
      bFirstOrEnd,
      'before its first write, while waiting to lead (a denied replica must wait and retry, not throw)',
    );
  o.bWrote = bFirstOrEnd === 'wrote';
  o.bWroteWhileCut = o.bWrote && !cut.isReleased;
  // From B's first write on, B's lock is read before each of A's writes is accepted.
  if (o.bWrote)
    o.bLease = {
      atFirstWrite: await readLease(s, 'B', "B's lease at its first write (B held there)"),
      atAWrites: readLeaseAtWrites(s, a, 'B'),
    };
  bFirst.release();
  if (o.bWrote) {
    s.progress(`B leads and wrote; A stays cut off for another ${p.observe} ms`);
    await s.sleep(p.observe);
  }
  const stopped = wireA?.records().find((r) => r.id === cut.record.id) ?? cut.record;
  o.cut = { how: cut.what, killed: cut.killed, stopped, ...(wireA ? {} : { atFilesystem: true as const }) };
  cut.release();
  if (o.bWrote) {
    // A blackholed renewal does not fail, it waits: only once the cut is lifted does A get its
    // real answer (B holds the lease now). Keep B leading and watch A for one more window, so a
    // loop that ignores that answer is seen writing before the loops are told to stop.
    s.progress(
      `cut lifted: A's held commands get their real answers; watching A for another ${p.observe} ms while B leads`,
    );
    await s.sleep(p.observe);
  }
  return finish();

  async function finish(): Promise<V315Observations> {
    a.abort();
    b.abort();
    const ends = await Promise.all(
      [aLoop, bLoop].map((loop) => (loop ? s.within(loop, p.timeout) : Promise.resolve(undefined))),
    );
    if (aLoop && ends[0] === undefined)
      s.note(`A's leader loop did not return within ${p.timeout} ms of being aborted`);
    o.watchedUntil = s.now();
    return o;
  }
}
