/**
 * Lands one explored point in a running scenario: armed right before A's part starts, it finds the
 * point's boundary (src/faults/point.ts) and asks the point's fault to land there (`landAt`, in
 * the fault's own file under src/faults/), which returns a stop resolving `reached` when A got
 * there; a fault that lands itself (`land`) is landed once A is held there (src/faults/land-at-point.ts),
 * with what the run's scenario offers it, whichever oracle explores. What happens then (B takes the
 * lock, A is killed...) is the oracle's own flow. A point at a cluster's link message is landed on
 * the cluster's nodes (./arm-link-point.ts).
 */
import type { Holder } from '../holder/holder.ts';
import type { WireProxy } from '../wire/proxy.ts';
import { boundaryLabel, type ExplorePoint } from './explore-point.ts';
import { FAULT_WORDS, faultNamed } from '../faults/registry.ts';
import { landsAtPoint, landsItself } from '../faults/landing.ts';
import { landAtPoint } from '../faults/land-at-point.ts';
import { pointContext } from '../faults/point.ts';
import type { Stop } from '../faults/stops.ts';
import { stepClockAt, type ClockStep } from '../faults/generic/clock-step.ts';
import type { ClusterNodes } from './cluster-nodes.ts';
import { armLinkPoint } from './arm-link-point.ts';
import { landingContext } from './land-fault.ts';
import type { Scenario } from './scenario.ts';

/**
 * `s`: the run's scenario (its lock key; what a fault that lands itself is offered there,
 * src/oracle/land-fault.ts `landingContext`, so every oracle's points take them); `nodes`: a
 * cluster store's nodes, for a point at a link message (src/oracle/arm-link-point.ts).
 */
export function armPoint(
  point: ExplorePoint,
  holder: Holder,
  wire: WireProxy | undefined,
  s: Scenario,
  nodes?: ClusterNodes,
): Stop {
  const key = s.lockKey;
  const { boundary, fault } = point;
  const label = `${boundaryLabel(boundary)}, ${FAULT_WORDS[fault]}`;
  const which =
    boundary.kind === 'command' && boundary.keyNth !== undefined
      ? `its ${ordinalOf(boundary.keyNth)} command on the lock key`
      : boundary.kind === 'fs' && boundary.keyNth !== undefined
        ? `its ${ordinalOf(boundary.keyNth)} filesystem call on the lock's path`
        : boundary.link
          ? `the ${ordinalOf(boundary.link.nth)} ${boundary.name} from ${boundary.link.from} to ${boundary.link.to}`
          : `its ${ordinalOf(boundary.nth)} ${boundary.kind} ${boundary.name}`;
  const missed =
    `A's ${boundary.part} finished without reaching ${boundaryLabel(boundary)} (${which}, seen there when A ran alone): ` +
    'with this schedule A took another path, so the fault never landed';
  if (boundary.kind === 'message') {
    if (!nodes)
      throw new Error(`point ${label}: a link message boundary needs a cluster store's nodes (--store cluster)`);
    return armLinkPoint(point, nodes, label, missed);
  }
  const declared = faultNamed(fault);
  const at = pointContext(boundary, holder, wire, key, label, missed);
  if (landsItself(declared))
    // A landing that says it cannot land there leaves the point out (the run's judge stage reads it off the scenario).
    return s.notePointLanding(landAtPoint(declared, at, landingContext(s, holder, wire)));
  if (!landsAtPoint(declared))
    throw new Error(
      `point ${label}: ${fault} does not land at a boundary of A's by itself: the oracle's flow for it plays it`,
    );
  return declared.landAt(at);
}

function ordinalOf(n: number): string {
  return `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;
}

export type { ClockStep };

/**
 * Lands a clock point (clock-ahead / clock-back: src/faults/generic/clock-step.ts): A's wall clock
 * steps by `deltaMs` right before A prepares the boundary's command. Await it before starting A's part.
 */
export async function armClockStep(
  point: ExplorePoint,
  holder: Holder,
  wire: WireProxy | undefined,
  key: string,
  deltaMs: number,
): Promise<ClockStep> {
  const { boundary } = point;
  const label = boundaryLabel(boundary);
  const missed = `A's ${boundary.part} ended before the reply to its command on the lock before ${label}: A took another path, so its clock was never stepped there`;
  return stepClockAt(pointContext(boundary, holder, wire, key, label, missed), deltaMs);
}
