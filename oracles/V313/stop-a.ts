/**
 * How V313 stops A after its first write, as a Stop (src/faults/stops.ts): SIGSTOP (--variant
 * pause), its next renewal held (--variant renewal-wire: scenarios/renewal-hold.ts, at its wire
 * proxy or on its cluster node's link), the explored point's boundary (--explore), or held at its
 * first write under a fault that lands itself (--fault NAME). Records whether and when the stop
 * landed; a stop that did not land lets A go and waits for its job. Then marks when A's lease runs
 * out while A is stopped.
 */
import type { ParamValues } from '../../src/core/params.ts';
import type { CallOutcome, Holder } from '../../src/holder/holder.ts';
import type { Latch } from '../../src/holder/latch.ts';
import { boundaryLabel, pointInWords } from '../../src/oracle/explore-point.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import { latchStop, pauseAtLatch, type Stop } from '../../src/faults/stops.ts';
import { STAGED_WRITE_SEAM } from '../../targets/contract.ts';
import { delayedWriteStop, partitionStop } from '../../src/faults/cut-off.ts';
import type { WireProxy } from '../../src/wire/proxy.ts';
import { armAfterFirstWrite } from './arm-after-first-write.ts';
import { holdRenewalOfA } from '../../scenarios/renewal-hold.ts';
import { landing, type StoppedA } from '../../scenarios/stop-landing.ts';
import { tryLandFault } from '../../src/oracle/land-fault.ts';
import { NO_LANDED_FAULT } from '../../src/oracle/landed-fault.ts';
import type { AStop, V313Observations } from './observations.ts';
import type { v313Params } from './params.ts';

type Params = ParamValues<typeof v313Params>;

/** Stop A, held at its first write (`first`), somewhere after it; `stopped` is absent when the stop did not land. */
export async function stopA(
  s: Scenario,
  p: Params,
  a: Holder,
  first: Latch,
  aJob: Promise<CallOutcome>,
  wireA: WireProxy | undefined,
): Promise<{ observed: AStop; stopped?: StoppedA }> {
  const point = s.point;
  if (point) {
    const at = await armAfterFirstWrite(s, point, a, first, wireA);
    const landed = await landing(s, p.timeout, at.reached, aJob);
    const since = s.now();
    const label = boundaryLabel(point.boundary);
    const words = pointInWords(point);
    const cannot = landed === 'held' ? at.notApplicable : undefined;
    const observed: AStop = {
      kind: 'point',
      landed,
      label,
      words,
      missed: at.missed,
      since,
      fault: point.fault,
      ...(cannot ? { notApplicable: cannot } : {}),
    };
    // A fault that lands itself and said it does not apply here: A goes on, the point is left out.
    if (landed !== 'held' || cannot) {
      at.release();
      await s.within(aJob, p.timeout);
      return { observed };
    }
    return { observed, stopped: { stop: describedAs(at, `held at ${label} (${words})`), since } };
  }
  if (p.landedFault !== NO_LANDED_FAULT) return landAtFirstWrite(s, p, a, first, wireA, aJob);
  // --variant renewal-wire: A's next renewal held at its wire proxy (a cluster: the grant to its node, on its link).
  if (p.variant === 'renewal-wire') return holdRenewalOfA(s, p.timeout, first, aJob, wireA);
  if (p.variant === 'staged') {
    const latch = a.holdSeam(STAGED_WRITE_SEAM);
    first.release();
    const landed = await landing(s, p.timeout, latch.reached, aJob);
    const since = s.now();
    const words = `A was held at its seam ${STAGED_WRITE_SEAM}: its next write staged under the lock and unlocked, not yet committed`;
    const observed: AStop = { kind: 'staged', landed, since, words };
    if (landed !== 'held') {
      latch.release();
      await s.within(aJob, p.timeout);
      return { observed };
    }
    const missed = `A's job ended without reaching its seam ${STAGED_WRITE_SEAM}`;
    return {
      observed,
      stopped: { stop: latchStop(latch, 'held between its staged write and its commit', missed), since },
    };
  }
  if (p.variant === 'partition' || p.variant === 'delay-write') {
    // A's next write is the first one held: A is at its first write now.
    const words =
      p.variant === 'partition'
        ? "from A's next write on, everything A sent and received was held (its store connections both ways, its writes on their way to the resource) while A kept running"
        : "A's next write was held on its way to the resource (A waiting for its receipt, its store traffic flowing)";
    const missed = `A's job ended without another write after its first: nothing to hold`;
    const stop =
      p.variant === 'partition'
        ? partitionStop(a, wireA, { effect: 1 }, 'cut off (partition)', missed)
        : delayedWriteStop(a, 1, 'its next write held on its way to the resource', missed);
    first.release();
    const landed = await landing(s, p.timeout, stop.reached, aJob);
    const since = s.now();
    const observed: AStop = { kind: p.variant, landed, since, words };
    if (landed !== 'held') {
      stop.release();
      await s.within(aJob, p.timeout);
      return { observed };
    }
    return { observed, stopped: { stop, since } };
  }
  const since = s.now();
  const stop = pauseAtLatch(first, a, 'stopped (SIGSTOP)', 'never: A is already at the write it is stopped at');
  await stop.reached;
  return { observed: { kind: 'pause', since }, stopped: { stop, since } };
}

/**
 * A fault that lands itself (--fault NAME, src/faults/landing.ts), landed while A is held at its
 * first write; A stays held there until it is lifted, then goes on with what the fault left it.
 * A fault tried there that did not land lets A go on at once: no stop (INCONCLUSIVE, with why).
 */
async function landAtFirstWrite(
  s: Scenario,
  p: Params,
  a: Holder,
  first: Latch,
  wireA: WireProxy | undefined,
  aJob: Promise<CallOutcome>,
): Promise<{ observed: AStop; stopped?: StoppedA }> {
  const landed = await tryLandFault(s, p.landedFault, a, wireA);
  const since = s.now();
  if (!landed.reached) {
    // Tried and not landed here (a lease that outlived the bound, no ping sent): A goes on, the run is judged INCONCLUSIVE.
    first.release();
    await s.within(aJob, p.timeout);
    return {
      observed: { kind: 'landed', fault: p.landedFault, took: false, since, words: landed.why, notLanded: true },
    };
  }
  const observed: AStop = { kind: 'landed', fault: p.landedFault, took: landed.took, since, words: landed.words };
  const stop: Stop = {
    what: `held at its first write, ${landed.words}`,
    missed: 'never: A is already at the write the fault lands at',
    reached: Promise.resolve(),
    release: () => (landed.lift(), first.release()),
    get isReleased() {
      return first.isReleased;
    },
  };
  return { observed, stopped: { stop, since } };
}

/**
 * When A's lease runs out: by the store's own clock where the harness can read the key (the
 * PTTL read now; A cannot renew while stopped), else at the latest by the TTL A was asked to use.
 * Records A's token as it was stopped, to tell A's old lease from a new one later.
 */
export async function markLeaseEnd(s: Scenario, p: Params, { since }: StoppedA, o: V313Observations): Promise<void> {
  const seen = s.lockUnreadable === undefined ? await s.observeLock("A stopped: its lease's time left") : undefined;
  if (seen?.exists) o.aTokenAtStop = seen.value;
  if (seen?.exists && typeof seen.ino === 'number') o.aInoAtStop = seen.ino;
  if (seen?.exists && seen.pttlMs < 0) return; // no expiry on the key: the lease never runs out by itself
  // A delayed write leaves A's store traffic flowing: A may renew, so no end is known from here.
  if (p.variant === 'delay-write' || s.point?.fault === 'delay-write') return;
  if (seen?.exists)
    s.leaseRanOut(
      'A',
      seen.liveUntil,
      `the key's PTTL ${seen.pttlMs} ms, read ${(seen.sentAt - since).toFixed(1)} ms into A's stop`,
    );
  else
    s.leaseRanOut(
      'A',
      since + p.ttl,
      `at the latest: ${p.ttl} ms after A was stopped, by the TTL it was asked to use (A cannot renew while stopped)`,
    );
}

/** The same stop, described for A's progress lines. */
function describedAs(stop: Stop, what: string): Stop {
  return {
    what,
    missed: stop.missed,
    reached: stop.reached,
    release: () => stop.release(),
    get isReleased() {
      return stop.isReleased;
    },
  };
}
