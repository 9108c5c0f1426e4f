/**
 * An explored point armed while A is held at its first write, then A let go towards it. On one
 * server the trace counts A's writes from after its first (the part explored starts there); on a
 * topology it counts them from its job's start (its acquire is explored too: Redlock's pause right
 * after the acquire is at its 1st write), so the write A is held at now is that point's 1st.
 */
import type { Holder } from '../../src/holder/holder.ts';
import type { Latch } from '../../src/holder/latch.ts';
import { armPoint } from '../../src/oracle/arm-point.ts';
import { boundaryLabel, type ExplorePoint } from '../../src/oracle/explore-point.ts';
import { FAULT_WORDS } from '../../src/faults/registry.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import { latchStop, pauseAtLatch, type Stop } from '../../src/faults/stops.ts';
import type { WireProxy } from '../../src/wire/proxy.ts';
import { targetNodesIfAny } from '../../scenarios/holder-wire.ts';

export async function armAfterFirstWrite(
  s: Scenario,
  point: ExplorePoint,
  a: Holder,
  first: Latch,
  wireA: WireProxy | undefined,
): Promise<Stop> {
  const { boundary } = point;
  const fromJobStart = s.store.topology !== undefined && boundary.kind === 'effect';
  if (fromJobStart && boundary.nth === 1) {
    const label = `${boundaryLabel(boundary)}, ${FAULT_WORDS[point.fault]}`;
    const missed = `A's job never reached its first write (${boundaryLabel(boundary)})`;
    return point.fault === 'pause' ? pauseAtLatch(first, a, label, missed) : latchStop(first, label, missed);
  }
  const counted = fromJobStart ? { ...point, boundary: { ...boundary, nth: boundary.nth - 1 } } : point;
  const at = armPoint(counted, a, wireA, s, await targetNodesIfAny(s));
  first.release();
  return at;
}
