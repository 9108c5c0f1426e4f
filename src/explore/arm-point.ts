/**
 * Lands one explored point in a running scenario: armed right before A's part starts, it stops A
 * at the point's boundary (its command kept at the wire, its reply kept from it, its seam or its
 * effect's receipt withheld) and resolves `reached` when A got there. What happens then (B takes
 * the lock, A is killed...) is the oracle's own flow.
 */
import type { Holder } from '../../scenarios/holder.ts';
import type { WireProxy } from '../../scenarios/wire/proxy.ts';
import { boundaryLabel, FAULT_WORDS, type ExplorePoint } from './types.ts';

export interface PointStop {
  /** Resolves when A reached the point and is stopped there. */
  reached: Promise<unknown>;
  /** Let A go on (forward the held command or reply, release the latch). */
  release(): void;
  readonly isReleased: boolean;
  /** "release#2 DEL, held before it" */
  label: string;
  /** Why the point was never reached, when A's part finished without it. */
  missed: string;
}

export function armPoint(point: ExplorePoint, holder: Holder, wire: WireProxy | undefined, key: string): PointStop {
  const { boundary, fault } = point;
  const label = `${boundaryLabel(boundary)}, ${FAULT_WORDS[fault]}`;
  const byKey = boundary.kind === 'command' && boundary.keyNth !== undefined;
  const which = byKey ? `its ${ordinalOf(boundary.keyNth!)} command on the lock key` : `its ${ordinalOf(boundary.nth)} ${boundary.kind} ${boundary.name}`;
  const missed =
    `A's ${boundary.part} finished without reaching ${boundaryLabel(boundary)} (${which}, seen there when A ran alone): ` +
    'with this schedule A took another path, so the fault never landed';
  if (boundary.kind === 'command') {
    if (!wire) throw new Error(`point ${label}: a command boundary needs A behind its wire proxy`);
    const pattern = byKey ? { naming: key } : { command: boundary.name };
    const nth = byKey ? boundary.keyNth! : boundary.nth;
    const hold = fault === 'hold-before' ? wire.hold(pattern, { nth }) : wire.holdReply(pattern, { nth });
    return {
      reached: hold.reached,
      release: () => hold.release(),
      get isReleased() {
        return !hold.holding && !hold.armed;
      },
      label,
      missed,
    };
  }
  const latch = boundary.kind === 'seam' ? holder.holdSeam(boundary.name) : holder.holdEffect(boundary.nth);
  return {
    reached: latch.reached,
    release: () => latch.release(),
    get isReleased() {
      return latch.isReleased;
    },
    label,
    missed,
  };
}

function ordinalOf(n: number): string {
  return `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;
}
