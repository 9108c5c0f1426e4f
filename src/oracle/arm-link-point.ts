/**
 * Lands an explored point at a message on a cluster's node-to-node link (--store cluster): the
 * message the trace saw on that direction (its type, and which one of that type since A's part
 * began) held at the harness's link proxy until released (hold-message), or A's node stopped
 * (SIGSTOP) the moment the message reaches the proxy, the message then let go into the stopped node
 * or from it to its peer, the node resumed when released (pause-node). Resolves `reached` when the
 * message got there.
 */
import type { ExplorePoint } from './explore-point.ts';
import type { ClusterNodes } from './cluster-nodes.ts';
import { heldStop, type Stop } from '../faults/stops.ts';

export function armLinkPoint(point: ExplorePoint, nodes: ClusterNodes, label: string, missed: string): Stop {
  const { boundary, fault } = point;
  const link = boundary.link;
  if (boundary.kind !== 'message' || !link)
    throw new Error(`point ${label}: only a link message is held on a cluster's link, not a ${boundary.kind}`);
  const hold = nodes.links.hold({ from: link.from, to: link.to, type: boundary.name, nth: link.nth });
  if (fault === 'hold-message') return heldStop(hold, label, missed);
  if (fault !== 'pause-node') throw new Error(`point ${label}: a link message takes hold-message or pause-node`);
  const node = nodes.nodeOf('A').id;
  let paused = false;
  const reached = hold.reached.then(async (held) => {
    await nodes.pause(node);
    paused = true;
    hold.release();
    return held;
  });
  reached.catch(() => undefined); // awaited by the oracle
  return {
    what: label,
    missed,
    reached,
    release: () => {
      if (paused) nodes.resume(node);
      paused = false;
      hold.release();
    },
    get isReleased() {
      return !paused && !hold.holding && !hold.armed;
    },
  };
}
