/**
 * Lands one explored point in a running scenario: armed right before A's part starts, it stops A
 * at the point's boundary (its command kept at the wire, its reply kept from it, its seam or its
 * effect's receipt withheld, or the whole process stopped at that receipt) and resolves `reached`
 * when A got there. What happens then (B takes the lock, A is killed...) is the oracle's own flow.
 */
import type { Holder } from '../holder/holder.ts';
import type { WireProxy } from '../wire/proxy.ts';
import { boundaryLabel, type ExplorePoint } from './explore-point.ts';
import { FAULT_WORDS } from '../faults/registry.ts';
import { droppedReplyStop, heldStop, latchStop, pauseAtLatch, type Stop } from './stops.ts';
import { fsBoundariesOf, onLockPath } from '../holder/fs-boundaries.ts';
import { armCutOff } from './arm-cut-off.ts';
import type { FsOp } from '../holder/fs-protocol.ts';
import type { ClusterNodes } from './cluster-nodes.ts';
import { armLinkPoint } from './arm-link-point.ts';

/** `nodes`: a cluster store's nodes, for a point at a link message (src/oracle/arm-link-point.ts). */
export function armPoint(
  point: ExplorePoint,
  holder: Holder,
  wire: WireProxy | undefined,
  key: string,
  nodes?: ClusterNodes,
): Stop {
  const { boundary, fault } = point;
  const label = `${boundaryLabel(boundary)}, ${FAULT_WORDS[fault]}`;
  const byKey = boundary.kind === 'command' && boundary.keyNth !== undefined;
  const byFsKey = boundary.kind === 'fs' && boundary.keyNth !== undefined;
  const which = byKey
    ? `its ${ordinalOf(boundary.keyNth!)} command on the lock key`
    : byFsKey
      ? `its ${ordinalOf(boundary.keyNth!)} filesystem call on the lock's path`
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
  if (fault === 'partition' || fault === 'delay-write') return armCutOff(point, holder, wire, key, label, missed);
  if (boundary.kind === 'fs') {
    const boundaries = fsBoundariesOf(holder);
    if (!boundaries) throw new Error(`point ${label}: a filesystem boundary needs A on a file store (--store fs)`);
    const match = byFsKey ? { path: (path: string) => onLockPath(path, key) } : { op: boundary.name as FsOp };
    const hold = boundaries.hold(match, {
      nth: byFsKey ? boundary.keyNth! : boundary.nth,
      on: fault === 'hold-before' ? 'call' : 'result',
    });
    return heldStop(hold, label, missed);
  }
  if (boundary.kind === 'command') {
    if (!wire) throw new Error(`point ${label}: a command boundary needs A behind its wire proxy`);
    const pattern = byKey ? { naming: key } : { command: boundary.name };
    const nth = byKey ? boundary.keyNth! : boundary.nth;
    const hold = fault === 'hold-before' ? wire.hold(pattern, { nth }) : wire.holdReply(pattern, { nth });
    if (fault === 'reply-dropped')
      return droppedReplyStop(
        hold,
        (connection) => wire.dropConnection(connection, `its held reply to ${boundary.text} discarded`),
        label,
        missed,
      );
    return heldStop(hold, label, missed);
  }
  const latch = boundary.kind === 'seam' ? holder.holdSeam(boundary.name) : holder.holdEffect(boundary.nth);
  // As V313's plain pause: A stopped first, then its receipt sent, to be read when A resumes.
  if (fault === 'pause') return pauseAtLatch(latch, holder, label, missed);
  return latchStop(latch, label, missed);
}

function ordinalOf(n: number): string {
  return `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;
}

/** A clock point in force: `landed` says whether A's clock was stepped before A prepared the command. */
export interface ClockStep {
  /** Resolves true once A's clock is stepped; false if A's part ended first (see `settle`). */
  landed: Promise<boolean>;
  /** Call when A's part ended: a step still waiting is cancelled. */
  settle(): void;
  missed: string;
}

/**
 * Lands a clock point (clock-ahead / clock-back): A's wall clock steps by `deltaMs` right before A
 * prepares the boundary's command — at once for A's first command on the lock (call this just
 * before A's part begins), else the moment the reply to its previous command on the lock reaches
 * A's proxy, held there until the step is in force. A's clock must already be installed; await it
 * before starting A's part (for the first command the step is in force when it resolves).
 */
export async function armClockStep(
  point: ExplorePoint,
  holder: Holder,
  wire: WireProxy | undefined,
  key: string,
  deltaMs: number,
): Promise<ClockStep> {
  const { boundary } = point;
  const previous = (boundary.keyNth ?? 1) - 1;
  const missed = `A's ${boundary.part} ended before the reply to its command on the lock before ${boundaryLabel(boundary)}: A took another path, so its clock was never stepped there`;
  const step = () => holder.clock({ op: 'step', deltaMs }).then(() => true);
  if (previous === 0) return { landed: Promise.resolve(await step()), settle: () => undefined, missed };
  if (!wire)
    throw new Error(`point ${boundaryLabel(boundary)}: a clock step after a reply needs A behind its wire proxy`);
  const hold = wire.holdReply({ naming: key }, { nth: previous });
  let settled!: (value: boolean) => void;
  const ended = new Promise<boolean>((resolve) => (settled = resolve));
  const landed = Promise.race([
    hold.reached.then(
      async () => step().finally(() => hold.release()),
      () => false,
    ),
    ended,
  ]);
  return {
    landed,
    settle: () => {
      settled(false);
      hold.release();
    },
    missed,
  };
}
