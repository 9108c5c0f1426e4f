/**
 * Lands an explored point at a message on a cluster's node-to-node link (--store cluster): the
 * point's fault lands there itself (`landAtMessage`, in its own file under
 * src/families/cluster/faults/: the message held, A's node paused as it arrives, a node's clock
 * stepped as it arrives) and returns a stop, reached when the message got there. `clockStep`: for a
 * fault that steps a node's clock there, which node and by how many ms (the oracle's moment: V317).
 */
import type { ClusterNodes } from './cluster-nodes.ts';
import type { ExplorePoint } from './explore-point.ts';
import { FAULTS, faultNamed } from '../faults/registry.ts';
import type { Stop } from '../faults/stops.ts';
import { landsAtMessage, type MessageContext } from '../families/cluster/faults/at-message.ts';

export function armLinkPoint(
  point: ExplorePoint,
  nodes: ClusterNodes,
  label: string,
  missed: string,
  clockStep?: MessageContext['clockStep'],
): Stop {
  const fault = faultNamed(point.fault);
  if (!landsAtMessage(fault))
    throw new Error(
      `point ${label}: ${point.fault} does not land at a message on a cluster's link (those that do: ${FAULTS.filter(
        landsAtMessage,
      )
        .map((f) => f.name)
        .join(', ')})`,
    );
  return fault.landAtMessage({ boundary: point.boundary, nodes, label, missed, ...(clockStep ? { clockStep } : {}) });
}
