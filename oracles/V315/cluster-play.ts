/**
 * V315 on a cluster of the target's own nodes (--store cluster): A leads through its node; at A's
 * first write A's node is partitioned from the other nodes (every message between them dropped)
 * while A and its node keep running, so its node can renew nothing with the key's home; the home's
 * grant lapses and B leads through its node and writes. A is watched --observe ms more with the
 * partition in force (a dropped message is never delivered later, so nothing is owed to A once it
 * heals); then both loops are told to stop and the partition heals. Records what happened; judges
 * nothing (./judge.ts).
 */
import type { ParamValues } from '../../src/core/params.ts';
import { throwIfTargetThrew, type CallOutcome } from '../../src/holder/holder.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import type { LinkPartition } from '../../src/wire/link-faults.ts';
import { readLease, readLeaseAtWrites } from '../../scenarios/lease-at-writes.ts';
import type { V315Observations } from './observations.ts';
import type { v315Params } from './params.ts';

export async function playV315OnCluster(s: Scenario, p: ParamValues<typeof v315Params>): Promise<V315Observations> {
  const nodes = await s.nodes();
  const [a, b] = await Promise.all([s.holder('A'), s.holder('B')]);
  const aNode = nodes.nodeOf('A').id;
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
  s.progress(`A starts its leader loop through its node ${aNode}`);
  const aFirst = a.holdNextEffect();
  aLoop = a.call('leader');
  const aStarted = await s.within(Promise.race([aFirst.reached.then(() => 'wrote' as const), aLoop]), p.timeout);
  if (aStarted !== 'wrote')
    throwIfTargetThrew('A', 'leader', aStarted, 'before its first write, leading alone with no fault');
  o.aFirstWriteAt = aFirst.hit?.t ?? null;
  o.aLoopReturned = aStarted !== undefined && aStarted !== 'wrote';
  if (!aFirst.isReached) return finish();

  const others = nodes.ids.filter((id) => id !== aNode);
  const partition = nodes.links.partition([aNode], others);
  const cut = { partition, fromMs: s.now(), how: `A's node ${aNode} partitioned from ${others.join(', ')}` };
  const bFirst = b.holdNextEffect();
  bLoop = b.call('leader');
  aFirst.release();
  s.progress(
    `A's node ${aNode} partitioned from ${others.join(', ')} while A keeps running; waiting for its ${p.ttl} ms lease to lapse and B to lead`,
  );
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
    s.progress(`B leads and wrote; A's node stays partitioned for another ${p.observe} ms`);
    await s.sleep(p.observe);
  }
  return finish(cut);

  async function finish(cut?: { partition: LinkPartition; fromMs: number; how: string }): Promise<V315Observations> {
    a.abort();
    b.abort();
    const ends = await Promise.all(
      [aLoop, bLoop].map((loop) => (loop ? s.within(loop, p.timeout) : Promise.resolve(undefined))),
    );
    if (aLoop && ends[0] === undefined)
      s.note(`A's leader loop did not return within ${p.timeout} ms of being aborted`);
    o.watchedUntil = s.now();
    if (cut) {
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
      cut.partition.heal();
    }
    return o;
  }
}
