/**
 * V315's scenario: A leads through its wire proxy (a file store: its filesystem calls are its
 * boundaries); at its first write A is cut off (or, on an
 * --explore run, held at the point with the rest of its traffic blackholed) while its process runs;
 * B leads and writes — with --contenders 3 or more B, C, … run their loops together and the lock is
 * read before every holder's write (./contenders.ts); a point on a candidate kills A and holds that
 * candidate in its election instead —; the cut lasts --observe ms more, is lifted, and A is watched
 * --observe ms more; then every loop is told to stop. With --fault failover (--topology replicated
 * or sentinel) the master's replication is held from before A leads, so A's leader key lives on the
 * master alone; at A's first write (A held there) A's store traffic is held at its proxy as by the
 * blackhole, the master SIGKILLed and a replica promoted; A runs on and B leads on the promoted node
 * inside A's lease; the rest is as above. On a store that cuts A off its own way (its family's
 * cutOff: a cluster partitions A's node from the others) ./store-cut-play.ts plays the cut instead.
 * Records what happened; judges nothing.
 */
import { UsageError } from '../../src/core/errors.ts';
import type { ParamValues } from '../../src/core/params.ts';
import { throwIfTargetThrew } from '../../src/holder/holder.ts';
import { armPoint } from '../../src/oracle/arm-point.ts';
import { boundaryLabel, pointInWords } from '../../src/oracle/explore-point.ts';
import { storeCutOff } from '../../src/oracle/land-fault.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import { contenderIds } from '../../scenarios/contenders.ts';
import { flowOf } from '../../scenarios/fault-flows.ts';
import { readLease, readLeaseAtWrites } from '../../scenarios/lease-at-writes.ts';
import { raceAtCandidatePoint, raceWhileCut, type Loops } from './contenders.ts';
import { cutAtPoint, cutOff, type Cut } from './cut.ts';
import { noneSeenYet, type ContendersSeen, type V315Observations } from './observations.ts';
import type { v315Params } from './params.ts';
import { playV315CutByStore } from './store-cut-play.ts';

export async function playV315(s: Scenario, p: ParamValues<typeof v315Params>): Promise<V315Observations> {
  // A store that cuts A off its own way (a cluster: A's node partitioned from the others) plays that cut.
  const storeCut = storeCutOff(s);
  if (storeCut) {
    if (p.fault !== 'blackhole' || s.point || p.contenders > 2)
      throw new UsageError(
        `on a ${s.family.name} store A is cut off by the store's own ${storeCut.name} (${storeCut.words}): --fault ${p.fault}${s.point ? ' and --explore' : ''}${p.contenders > 2 ? ` and --contenders ${p.contenders}` : ''} do not apply there (run it without)`,
      );
    return playV315CutByStore(s, p, storeCut);
  }
  // A fault that plays its own flow (--fault failover, or a failover point of --explore --topology),
  // armed before A leads (the master's replication held from now), landed once A holds its lease.
  const armed = await armFlow(s, p);
  // A file store has no wire: A is cut off at its filesystem calls instead (cut.ts).
  const wireA = await s.wireWhereCommands('A');
  const point = s.point;
  const onCandidate = point?.holder !== undefined && point.holder !== 'A' ? point.holder : undefined;
  const wireHeld = onCandidate ? await s.wire(onCandidate) : undefined;
  const [a, ...candidates] = await Promise.all([
    s.holder('A', wireA ? { url: wireA.url } : {}),
    ...contenderIds(p.contenders).map((id) =>
      s.holder(id, id === onCandidate && wireHeld ? { url: wireHeld.url } : {}),
    ),
  ]);
  const b = candidates[0]!;
  const loops: Loops = new Map();
  let contenderReadings: (() => ContendersSeen['readings']) | undefined;
  const o = noneSeenYet(candidates.length + 1);
  s.progress('A starts its leader loop through its wire proxy');
  const leadingSince = s.now();
  const aFirst = a.holdNextEffect();
  const aLoop = a.call('leader');
  loops.set('A', aLoop);
  const aStarted = await s.within(Promise.race([aFirst.reached.then(() => 'wrote' as const), aLoop]), p.timeout);
  if (aStarted !== 'wrote')
    throwIfTargetThrew('A', 'leader', aStarted, 'before its first write, leading alone with no fault');
  o.aFirstWriteAt = aFirst.hit?.t ?? null;
  o.aLoopReturned = aStarted !== undefined && aStarted !== 'wrote';
  if (!aFirst.isReached) return finish();
  // A at its first write leads: nothing at env.key and no storeKey, the lock is where A's loop took it.
  if (s.family.commands.lockLocations && s.lockUnreadable === undefined && !(await s.readLock()).exists)
    o.inferred = s.inferLockLocation('A', leadingSince) ?? null;

  const race = { s, p, a, candidates, loops };
  if (onCandidate) {
    const raced = await raceAtCandidatePoint(race, point!, wireHeld!, o.aFirstWriteAt!);
    o.contenders = raced.seen;
    contenderReadings = raced.readings;
    return finish();
  }
  let cut: Cut;
  if (point) {
    // A flow's point (a failover): A held as the flow says (its command run on the master, its reply held) while it lands.
    const at = armPoint(armed ? { ...point, fault: armed.holdsAtPoint } : point, a, wireA, s);
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
    if (armed) o.failover = await armed.land();
  } else if (armed) {
    // A's client reconnects when the kill cuts its connection: what it re-sends waits at its proxy until B wrote.
    cut = await cutOff(s, a, wireA, 'blackhole');
    o.failover = await armed.land();
  } else {
    cut = await cutOff(s, a, wireA, p.fault);
  }
  let led: boolean;
  if (candidates.length > 1) {
    const raced = await raceWhileCut(race, cut, () => aFirst.release());
    o.contenders = raced.seen;
    contenderReadings = raced.readings;
    led = raced.seen.firstLeader !== null;
  } else {
    led = await bLeads();
  }
  if (led) {
    s.progress(`a successor leads and wrote; A stays cut off for another ${p.observe} ms`);
    await s.sleep(p.observe);
  }
  const stopped = wireA?.records().find((r) => r.id === cut.record.id) ?? cut.record;
  o.cut = { how: cut.what, killed: cut.killed, stopped, ...(wireA ? {} : { atFilesystem: true as const }) };
  cut.release();
  if (led) {
    // A blackholed renewal does not fail, it waits: only once the cut is lifted does A get its
    // real answer (B holds the lease now). Keep B leading and watch A for one more window, so a
    // loop that ignores that answer is seen writing before the loops are told to stop.
    s.progress(
      `cut lifted: A's held commands get their real answers; watching A for another ${p.observe} ms while its successor leads`,
    );
    await s.sleep(p.observe);
  }
  return finish();

  /** One contender: B leads, held at its first write while its lease is read, and from then on before each of A's writes. */
  async function bLeads(): Promise<boolean> {
    const bFirst = b.holdNextEffect();
    const bLoop = b.call('leader');
    loops.set('B', bLoop);
    aFirst.release();
    s.progress(
      o.failover
        ? `${o.failover.promoted} promoted with A's leader key lost; A runs on, its store traffic held at its proxy; waiting for B to lead there`
        : `A cut off ${wireA ? 'at its wire proxy' : 'at its filesystem calls'} (${cut.what}) while it keeps running; waiting for its ${p.ttl} ms lease to lapse and B to lead`,
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
    return o.bWrote;
  }

  async function finish(): Promise<V315Observations> {
    const killed = o.contenders?.aKilled != null;
    for (const [id] of loops)
      if (!(killed && id === 'A')) (id === 'A' ? a : candidates.find((h) => h.id === id)!).abort();
    const ended = await Promise.all(
      [...loops].map(async ([id, loop]) => [id, await s.within(loop, p.timeout)] as const),
    );
    if (!killed && ended.some(([id, end]) => id === 'A' && end === undefined))
      s.note(`A's leader loop did not return within ${p.timeout} ms of being aborted`);
    o.watchedUntil = s.now();
    if (o.contenders && contenderReadings) o.contenders.readings = contenderReadings();
    return o;
  }
}

/**
 * The run's fault (the explored point's, or --fault) when it plays its own flow
 * (scenarios/fault-flows.ts): armed now, before A leads; undefined for a cut of A's own (./cut.ts).
 */
async function armFlow(s: Scenario, p: ParamValues<typeof v315Params>) {
  const fault = s.point?.fault ?? p.fault;
  const flow = flowOf(fault);
  if (!flow) return undefined;
  const why = s.point ? `--explore --topology (a ${fault} point)` : `V315 --fault ${fault}`;
  if (!flow.onceLocked)
    throw new UsageError(
      `${why}: that fault plays a flow of its own that V315 has no moment for (A leading, held at its first write); run it on V313`,
    );
  if (p.contenders > 2)
    throw new UsageError(
      `${why} runs A and B alone: --contenders ${p.contenders} does not apply there (run it without)`,
    );
  return { holdsAtPoint: flow.onceLocked.holdsAtPoint, land: await flow.onceLocked.arm(s, p, why) };
}
