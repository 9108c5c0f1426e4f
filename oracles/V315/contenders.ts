/**
 * V315 with --contenders 3 or more: the candidates B, C, … run the leader loop together once A is
 * gone — cut off at its wire proxy (the plain run, and A's explored points), or, a point on a
 * candidate, killed (SIGKILL) once it led, its lease lapsed in the store — and the lock is read
 * before each write of every holder is accepted, so the judge can pair any two leaders. A point on a
 * candidate holds it in its election (before a command, or its reply held) while the others run,
 * until one of them has led and written; then it goes on and is watched for --observe ms.
 * Records what happened (ContendersSeen); judges nothing.
 */
import type { ParamValues } from '../../src/core/params.ts';
import { throwIfTargetThrew, type CallOutcome, type Holder } from '../../src/holder/holder.ts';
import { armPoint } from '../../src/oracle/arm-point.ts';
import { boundaryLabel, pointInWords, type ExplorePoint } from '../../src/oracle/explore-point.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import type { Stop } from '../../src/faults/stops.ts';
import type { WireProxy } from '../../src/wire/proxy.ts';
import { readLockBeforeEveryWrite } from '../../scenarios/lease-at-writes.ts';
import type { ContenderHeld, ContendersSeen } from './observations.ts';
import type { v315Params } from './params.ts';

/** The leader loops running, by holder: play aborts and awaits every one at the end. */
export type Loops = Map<string, Promise<CallOutcome>>;

interface Race {
  s: Scenario;
  p: ParamValues<typeof v315Params>;
  a: Holder;
  candidates: readonly Holder[];
  loops: Loops;
}

/** The candidates lead together while A is cut off (`cut`); resolves once one of them wrote (or none did within --timeout). */
export async function raceWhileCut(
  { s, p, a, candidates, loops }: Race,
  cut: Stop,
  letAGo: () => void,
): Promise<{ seen: ContendersSeen; readings: () => ContendersSeen['readings'] }> {
  const reads = readLockBeforeEveryWrite(s, [a, ...candidates]);
  const first = firstWriteOf(s, candidates);
  for (const h of candidates) loops.set(h.id, h.call('leader'));
  letAGo();
  s.progress(
    `A cut off while it keeps running; ${candidates.map((h) => h.id).join(', ')} run their leader loops together, waiting for A's ${p.ttl} ms lease to lapse`,
  );
  const led = await leadOrEnd(s, p, candidates, loops, first);
  const seen: ContendersSeen = {
    ids: candidates.map((h) => h.id),
    firstLeader: led ?? null,
    ledWhileCut: led !== undefined && !cut.isReleased,
    aKilled: null,
    held: null,
    readings: [],
  };
  return { seen, readings: () => reads.taken() };
}

/**
 * A point on a candidate: A (held at its first write) is killed and its lease lapses in the store;
 * the held candidate starts its loop with the point armed; once it is held there the others start
 * theirs, and it is let go when one of them wrote (or --timeout passed); then it is watched for
 * --observe ms.
 */
export async function raceAtCandidatePoint(
  { s, p, a, candidates, loops }: Race,
  point: ExplorePoint,
  wire: WireProxy,
  aFirstWriteAt: number,
): Promise<{ seen: ContendersSeen; readings: () => ContendersSeen['readings'] }> {
  const exit = await a.kill();
  s.progress(`A killed (SIGKILL) once it led; waiting for its ${p.ttl} ms lease to lapse in the store`);
  await s.sleep(Math.max(0, aFirstWriteAt + p.ttl - s.now()));
  const left = await s.readLock();
  if (left.exists && left.pttlMs > 0) await s.sleep(left.pttlMs + 1);
  const reads = readLockBeforeEveryWrite(s, candidates);
  const heldOne = candidates.find((h) => h.id === point.holder)!;
  const others = candidates.filter((h) => h !== heldOne);
  const stop = armPoint(point, heldOne, wire, s);
  const heldLoop = heldOne.call('leader');
  loops.set(heldOne.id, heldLoop);
  const reached = await s.within(
    Promise.race([stop.reached.then(() => 'held' as const), heldLoop.then(() => 'ended' as const)]),
    p.timeout,
  );
  const held: ContenderHeld = {
    holder: heldOne.id,
    label: boundaryLabel(point.boundary),
    inWords: pointInWords(point),
    reached: reached ?? 'timeout',
    missed: stop.missed,
    othersLed: null,
  };
  const seen: ContendersSeen = {
    ids: candidates.map((h) => h.id),
    firstLeader: null,
    ledWhileCut: false,
    aKilled: { signal: exit.signal ?? null, t: exit.t },
    held,
    readings: [],
  };
  if (reached === 'held') {
    const first = firstWriteOf(s, others);
    for (const h of others) loops.set(h.id, h.call('leader'));
    s.progress(
      `${heldOne.id} held at ${held.label}; ${others.map((h) => h.id).join(', ')} run their leader loops meanwhile`,
    );
    held.othersLed = (await leadOrEnd(s, p, others, loops, first)) ?? null;
    stop.release();
    s.progress(`${heldOne.id} let go; watching every leader for ${p.observe} ms`);
    await s.sleep(p.observe);
  } else stop.release();
  const firstWrite = s.resource.effects().find((e) => e.holder !== 'A');
  seen.firstLeader = firstWrite ? { holder: firstWrite.holder, t: firstWrite.t } : null;
  return { seen, readings: () => reads.taken() };
}

/** Resolves with the first of `holders` whose write reached the resource. */
function firstWriteOf(s: Scenario, holders: readonly Holder[]): Promise<{ holder: string; t: number }> {
  return new Promise((resolve) => {
    for (const h of holders) h.observe((kind) => kind === 'effect' && resolve({ holder: h.id, t: s.now() }));
  });
}

/** The first write of `holders`, or undefined after --timeout; a loop that ended before any wrote is the target's error. */
async function leadOrEnd(
  s: Scenario,
  p: ParamValues<typeof v315Params>,
  holders: readonly Holder[],
  loops: Loops,
  first: Promise<{ holder: string; t: number }>,
): Promise<{ holder: string; t: number } | undefined> {
  const ended = holders.map((h) => loops.get(h.id)!.then((outcome) => ({ ended: h.id, outcome })));
  const led = await s.within(Promise.race([first, ...ended]), p.timeout);
  if (led && 'ended' in led) {
    throwIfTargetThrew(
      led.ended,
      'leader',
      led.outcome,
      'before any candidate wrote, while waiting to lead (a denied replica must wait and retry, not throw)',
    );
    return undefined;
  }
  return led;
}
