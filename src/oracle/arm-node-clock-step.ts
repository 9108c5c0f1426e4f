/**
 * Lands a node-clock point on a cluster's link (--store cluster, node-clock-ahead / node-clock-back):
 * the message the trace saw on that direction (its type, and which one of that type since A's part
 * began) is held at the harness's link proxy, node `node`'s wall clock is stepped by `wallMs` (an
 * NTP step; its monotonic clock untouched), and the message goes on. Arm it right before A's part;
 * call `settle` once A's part ended: a hold still waiting is disarmed and `landed` resolves false.
 */
import type { ClockStep } from '../faults/generic/clock-step.ts';
import type { ClusterNodes } from './cluster-nodes.ts';
import { boundaryLabel, type ExplorePoint } from './explore-point.ts';

export function armNodeClockStep(point: ExplorePoint, nodes: ClusterNodes, node: string, wallMs: number): ClockStep {
  const { boundary } = point;
  const link = boundary.link;
  if (boundary.kind !== 'message' || !link)
    throw new Error(
      `point ${boundaryLabel(boundary)}: a node's clock is stepped at a link message, not at a ${boundary.kind}`,
    );
  const missed = `A's ${boundary.part} ended without the ${boundary.name} #${link.nth} from ${link.from} to ${link.to} (seen there when A ran alone): A took another path, so ${node}'s clock was never stepped there`;
  const hold = nodes.links.hold({ from: link.from, to: link.to, type: boundary.name, nth: link.nth });
  let settled!: (value: boolean) => void;
  const ended = new Promise<boolean>((resolve) => (settled = resolve));
  const stepped = hold.reached.then(() => {
    try {
      nodes.clock(node).step({ wallMs });
      return true;
    } finally {
      hold.release();
    }
  });
  return {
    landed: Promise.race([stepped, ended]),
    settle: () => {
      settled(false);
      hold.release();
    },
    missed,
  };
}
