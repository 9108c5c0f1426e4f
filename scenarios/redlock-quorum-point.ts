/**
 * An explored point on Redlock's masters (--explore --topology redlock:N, a point's fault
 * node-restart or master-clock-ahead): the quorum flow (./redlock-quorum.ts) with the master faulted at the
 * point's write of A's job instead of at its first. A, held at its first write, is let go to that
 * write and held there (the write recorded, its receipt withheld); a job that ends first is a
 * missed point (A_STOPPED_AT_POINT does not hold: INCONCLUSIVE).
 */
import type { CallOutcome, Holder } from '../src/holder/holder.ts';
import type { Latch } from '../src/holder/latch.ts';
import { boundaryLabel, pointInWords, type ExplorePoint, type ExploreFault } from '../src/oracle/explore-point.ts';
import type { Scenario } from '../src/oracle/scenario.ts';
import type { NodeFaultKind } from './node-faults.ts';
import { landing, type PointStop } from './stop-landing.ts';

const NODE_FAULT_OF_POINT: Partial<Record<ExploreFault, NodeFaultKind>> = {
  'node-restart': 'restart',
  'master-clock-ahead': 'clock-ahead',
};

/** The master's fault an explored point asks for, if it is one. */
export function nodeFaultOfPoint(point: ExplorePoint | undefined): NodeFaultKind | undefined {
  return point ? NODE_FAULT_OF_POINT[point.fault] : undefined;
}

/** A, held at its first write (`first`), taken on to the point's write; `held` is the latch that holds it now. */
export async function holdAtPointWrite(
  s: Scenario,
  timeoutMs: number,
  a: Holder,
  first: Latch,
  aJob: Promise<CallOutcome>,
): Promise<{ stop: PointStop; held: Latch }> {
  const point = s.point!;
  const nth = point.boundary.kind === 'effect' ? point.boundary.nth : 1;
  // The first write was reported (its latch used up): the next effect is the 1st from now.
  const held = nth > 1 ? a.holdEffect(nth - 1) : first;
  if (nth > 1) first.release();
  const landed = nth > 1 ? await landing(s, timeoutMs, held.reached, aJob) : 'held';
  const label = boundaryLabel(point.boundary);
  const missed = `A's job ended before its write ${label} (seen there when A ran alone): with this schedule A took another path, so the master's fault never landed there`;
  return {
    stop: { kind: 'point', landed, label, words: pointInWords(point), missed, since: s.now(), fault: point.fault },
    held,
  };
}
