/**
 * V315 on a store that cuts a holder off its own way, where the harness does not stand between a
 * holder and the store on a wire (the family's `cutOff`; a cluster of the target's own nodes
 * partitions A's node from the others, every message between them dropped): A leads; at A's first
 * write the store's cut-off lands on A while A keeps running, so A can renew nothing; its lease
 * lapses and B leads and writes. A is watched --observe ms more with the cut in force (a dropped
 * message is never delivered later, so nothing is owed to A once it is lifted); then both loops
 * are told to stop and the cut is lifted. Records what happened; judges nothing (./judge.ts).
 */
import type { ParamValues } from '../../src/core/params.ts';
import type { StoreCutOff } from '../../src/faults/landing.ts';
import { throwIfTargetThrew, type CallOutcome } from '../../src/holder/holder.ts';
import { cutOffByStore } from '../../src/oracle/land-fault.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import { readLease, readLeaseAtWrites } from '../../scenarios/lease-at-writes.ts';
import { noneSeenYet, type V315Observations } from './observations.ts';
import type { v315Params } from './params.ts';

/** The store's cut-off in force on A, from when it landed. */
interface StoreCut {
  how: string;
  fromMs: number;
  lift(): void;
}

export async function playV315CutByStore(
  s: Scenario,
  p: ParamValues<typeof v315Params>,
  cutOff: StoreCutOff,
): Promise<V315Observations> {
  const [a, b] = await Promise.all([s.holder('A'), s.holder('B')]);
  let aLoop: Promise<CallOutcome> | undefined;
  let bLoop: Promise<CallOutcome> | undefined;
  const o = noneSeenYet(2);
  s.progress(`A starts its leader loop; at its first write the store cuts it off (${cutOff.words})`);
  const aFirst = a.holdNextEffect();
  aLoop = a.call('leader');
  const aStarted = await s.within(Promise.race([aFirst.reached.then(() => 'wrote' as const), aLoop]), p.timeout);
  if (aStarted !== 'wrote')
    throwIfTargetThrew('A', 'leader', aStarted, 'before its first write, leading alone with no fault');
  o.aFirstWriteAt = aFirst.hit?.t ?? null;
  o.aLoopReturned = aStarted !== undefined && aStarted !== 'wrote';
  if (!aFirst.isReached) return finish();

  const landed = await cutOffByStore(s, cutOff, a);
  const cut: StoreCut = { how: landed.words, fromMs: s.now(), lift: () => landed.lift() };
  const bFirst = b.holdNextEffect();
  bLoop = b.call('leader');
  aFirst.release();
  s.progress(`${cut.how} while A keeps running; waiting for its ${p.ttl} ms lease to lapse and B to lead`);
  const bFirstOrEnd = await s.within(Promise.race([bFirst.reached.then(() => 'wrote' as const), bLoop]), p.timeout);
  if (bFirstOrEnd !== 'wrote')
    throwIfTargetThrew(
      'B',
      'leader',
      bFirstOrEnd,
      'before its first write, while waiting to lead (a denied replica must wait and retry, not throw)',
    );
  o.bWrote = bFirstOrEnd === 'wrote';
  o.bWroteWhileCut = o.bWrote;
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
  return finish(cut);

  async function finish(cut?: StoreCut): Promise<V315Observations> {
    a.abort();
    b.abort();
    const ends = await Promise.all(
      [aLoop, bLoop].map((loop) => (loop ? s.within(loop, p.timeout) : Promise.resolve(undefined))),
    );
    if (aLoop && ends[0] === undefined)
      s.note(`A's leader loop did not return within ${p.timeout} ms of being aborted`);
    o.watchedUntil = s.now();
    if (cut) {
      // The link messages the cut dropped: what shows it landed.
      const dropped = s.history
        .events()
        .filter((e) => e.kind === 'link' && e.detail.fate === 'partitioned' && e.t >= cut.fromMs);
      o.cut = {
        how: cut.how,
        killed: 0,
        partitioned: {
          fromMs: cut.fromMs,
          dropped: dropped.length,
          samples: dropped.slice(0, 3).map((e) => `${String(e.detail.link)} ${String(e.detail.type)}`),
        },
      };
      cut.lift();
    }
    return o;
  }
}
