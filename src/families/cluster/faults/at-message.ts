/**
 * How the cluster's faults land at a message on a node-to-node link (an explored point on --store
 * cluster): armed right before A's part runs, each holds the message the trace saw there (its
 * direction, its type, and which one of that type since the part began) at the harness's link
 * proxy, does what it does the moment the message gets there, and returns a stop that is reached
 * then and lets everything go when released. Not applicable anywhere but at a link message.
 */
import type { Boundary, Fault } from '../../../core/fault.ts';
import type { StoreKind } from '../../../stores/types.ts';
import type { HeldLinkMessage, LinkHold } from '../../../wire/link-faults.ts';
import type { Stop } from '../../fault-landing.ts';
import type { RunningNodes } from '../running-nodes.ts';

/** What a fault landing at a link message is offered. */
export interface MessageContext {
  /** A message boundary of A's run (its `link` says the direction and which one). */
  readonly boundary: Boundary;
  readonly nodes: RunningNodes;
  /** The point in words, for progress lines and the evidence. */
  readonly label: string;
  /** Why the point was never reached, when A's part finished first. */
  readonly missed: string;
  /** A node's clock stepped there (node-clock-ahead / -back): which node, and by how many ms (the fault gives the sign). */
  readonly clockStep?: { readonly node: string; readonly ms: number };
}

/** A fault of the cluster's that lands at a link message by itself. */
export interface LinkMessageFault extends Fault {
  readonly stores: readonly StoreKind[];
  landAtMessage(ctx: MessageContext): Stop;
}

export function landsAtMessage(fault: Fault): fault is LinkMessageFault {
  return typeof (fault as Partial<LinkMessageFault>).landAtMessage === 'function';
}

/**
 * The message of the point held at its link proxy, and a stop over it: `onArrival` runs the moment
 * it is held (the fault's own act; it may let the message go), `lift` undoes that act on release.
 */
export function stopAtMessage(
  ctx: MessageContext,
  name: string,
  onArrival: (hold: LinkHold, held: HeldLinkMessage) => unknown,
  lift: { undo(): void; readonly undone: boolean } = { undo: () => undefined, undone: true },
): Stop {
  const { boundary, nodes, label, missed } = ctx;
  const link = boundary.link;
  if (boundary.kind !== 'message' || !link)
    throw new Error(`point ${label}: ${name} lands at a message on a cluster's link, not at a ${boundary.kind}`);
  const hold = nodes.links.hold({ from: link.from, to: link.to, type: boundary.name, nth: link.nth });
  const reached = hold.reached.then(async (held) => {
    await onArrival(hold, held);
    return held;
  });
  reached.catch(() => undefined); // awaited by the oracle
  return {
    what: label,
    missed,
    reached,
    release: () => {
      lift.undo();
      hold.release();
    },
    get isReleased() {
      return lift.undone && !hold.holding && !hold.armed;
    },
  };
}
