/**
 * V313 with --contenders 3 or more (--contender hold): the successors B, C, … run the job together,
 * each retrying until it writes or another has, while A is stopped after its first write; then A is
 * let go and runs on. A point on a successor (--explore) kills A at its first write instead and,
 * once A's lease has lapsed, holds that successor inside its take of the dead holder's lock while
 * the others run the job, until one of them wrote; then it goes on. Every holder's writes are
 * read at (the lock read before each is accepted). Records what happened (CandidatesSeen); judges nothing.
 */
import type { ParamValues } from '../../src/core/params.ts';
import type { CallOutcome, Holder } from '../../src/holder/holder.ts';
import { armPoint } from '../../src/oracle/arm-point.ts';
import { boundaryLabel, pointInWords, type ExplorePoint } from '../../src/oracle/explore-point.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import type { Stop } from '../../src/faults/stops.ts';
import type { Tracer } from '../../src/oracle/tracer.ts';
import type { WireProxy } from '../../src/wire/proxy.ts';
import { readLockBeforeEveryWrite } from '../../scenarios/lease-at-writes.ts';
import type { CandidatesSeen, V313Observations } from './observations.ts';
import type { v313Params } from './params.ts';

interface Race {
  s: Scenario;
  p: ParamValues<typeof v313Params>;
  a: Holder;
  candidates: readonly Holder[];
  retryEvery: number;
  o: V313Observations;
}

/** The successors run the job together while A is stopped (`stop`); then A is let go and runs on to the end of its job. */
export async function raceWhileStopped(x: Race, stop: Stop, aJob: Promise<CallOutcome>): Promise<void> {
  const { s, p, a, candidates, o } = x;
  const reads = readLockBeforeEveryWrite(s, [a, ...candidates]);
  s.progress(
    `A stopped after its first write; ${ids(candidates)} run the job together, each retrying until one of them writes`,
  );
  const first = firstWriteOf(s, candidates);
  const jobs = candidates.map((h) => retryJob(x, h, first));
  const wrote = await s.within(first, p.timeout);
  const seen: CandidatesSeen = {
    ids: candidates.map((h) => h.id),
    firstWriter: wrote ?? null,
    wroteWhileStopped: wrote !== undefined && !stop.isReleased,
    aKilled: null,
    held: null,
    readings: [],
  };
  o.contenders = seen;
  stop.release();
  s.progress(`A resumed; it and ${ids(candidates)} run on`);
  o.aResumed = { job: (await s.within(aJob, p.timeout)) ?? null };
  await s.within(Promise.all(jobs), p.timeout);
  seen.readings = reads.taken();
}

/**
 * A point on a successor: A, held at its first write, is killed; once its lease has lapsed the held
 * successor tries the job once with the point armed, and while it is held there the others run the
 * job until one of them wrote; then it goes on.
 */
export async function raceAtCandidatePoint(
  x: Race,
  point: ExplorePoint,
  wire: WireProxy,
  aFirstWriteAt: number,
): Promise<void> {
  const { s, p, a, candidates, o } = x;
  const exit = await a.kill();
  s.progress(`A killed (SIGKILL) at its first write; waiting for its ${p.ttl} ms lease to lapse`);
  // A lease taken before A's first write lapsed --ttl after it at the latest (the store's own PTTL, if it keeps one, too).
  await s.sleep(Math.max(0, aFirstWriteAt + p.ttl + 5 - s.now()));
  const left = await s.readLock();
  if (left.exists && left.pttlMs > 0) await s.sleep(left.pttlMs + 1);
  const reads = readLockBeforeEveryWrite(s, candidates);
  const heldOne = candidates.find((h) => h.id === point.holder)!;
  const others = candidates.filter((h) => h !== heldOne);
  const stop = armPoint(point, heldOne, wire, s);
  const heldJob = heldOne.call('job');
  const reached = await s.within(
    Promise.race([stop.reached.then(() => 'held' as const), heldJob.then(() => 'ended' as const)]),
    p.timeout,
  );
  const seen: CandidatesSeen = {
    ids: candidates.map((h) => h.id),
    firstWriter: null,
    wroteWhileStopped: false,
    aKilled: { signal: exit.signal ?? null, t: exit.t },
    held: {
      holder: heldOne.id,
      label: boundaryLabel(point.boundary),
      inWords: pointInWords(point),
      reached: reached ?? 'timeout',
      missed: stop.missed,
      othersWrote: null,
    },
    readings: [],
  };
  o.contenders = seen;
  if (reached === 'held') {
    s.progress(`${heldOne.id} held at ${seen.held!.label}; ${ids(others)} run the job meanwhile`);
    const first = firstWriteOf(s, others);
    const jobs = others.map((h) => retryJob(x, h, first));
    seen.held!.othersWrote = (await s.within(first, p.timeout)) ?? null;
    stop.release();
    await s.within(Promise.all([heldJob, ...jobs]), p.timeout);
  } else {
    stop.release();
    await s.within(heldJob, p.timeout);
  }
  const firstWrite = s.resource.effects().find((e) => e.holder !== 'A' && e.seq > o.solo.lastSeq);
  seen.firstWriter = firstWrite ? { holder: firstWrite.holder, t: firstWrite.t } : null;
  seen.readings = reads.taken();
}

/** `holder` runs the job again and again until it wrote, or another holder did (`first`), or --timeout passed. */
async function retryJob({ s, p, retryEvery }: Race, holder: Holder, first: Promise<unknown>): Promise<void> {
  let someoneWrote = false;
  void first.then(() => (someoneWrote = true));
  const deadline = s.now() + p.timeout;
  while (s.now() < deadline) {
    const before = s.resource.effects().length;
    await holder.call('job');
    if (
      s.resource
        .effects()
        .slice(before)
        .some((e) => e.holder === holder.id) ||
      someoneWrote
    )
      return;
    await s.sleep(retryEvery);
  }
}

/** Resolves with the first of `holders` whose write reached the resource. */
function firstWriteOf(s: Scenario, holders: readonly Holder[]): Promise<{ holder: string; t: number }> {
  return new Promise((resolve) => {
    for (const h of holders) h.observe((kind) => kind === 'effect' && resolve({ holder: h.id, t: s.now() }));
  });
}

function ids(holders: readonly Holder[]): string {
  return holders.map((h) => h.id).join(', ');
}

/** The part of a successor's run a point on it lands in: its job, once A's lease lapsed, until its first write. */
export const TAKEOVER = 'takeover';

/**
 * The trace's part for points on a successor: A runs the job again and is killed at its first
 * write; once its lease has lapsed B runs the job, traced until its first write (its take of the
 * dead holder's lock).
 */
export async function traceTakeover(s: Scenario, tracer: Tracer, a: Holder, p: ParamValues<typeof v313Params>) {
  const first = a.holdNextEffect();
  const job = a.call('job');
  await s.within(Promise.race([first.reached, job]), p.timeout);
  if (!first.isReached) return;
  const at = s.now();
  await a.kill();
  await s.sleep(Math.max(0, at + p.ttl + 5 - s.now()));
  const left = await s.readLock();
  if (left.exists && left.pttlMs > 0) await s.sleep(left.pttlMs + 1);
  const b = await tracer.holder(s, 'B');
  tracer.begin(TAKEOVER);
  const bFirst = b.holdNextEffect();
  const bJob = b.call('job');
  await s.within(Promise.race([bFirst.reached, bJob]), p.timeout);
  tracer.end();
  bFirst.release();
  await s.within(bJob, p.timeout);
}
