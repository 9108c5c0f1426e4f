/**
 * A's node stopped (SIGSTOP) as a link message reached the link proxy; the cluster family's fault,
 * landed by src/oracle/arm-link-point.ts.
 */
import type { Fault } from '../../../core/fault.ts';

export const PAUSE_NODE: Fault = {
  name: 'pause-node',
  rank: 90,
  words: "A's node stopped (SIGSTOP) as it arrived",
  doc: "A's node is stopped (SIGSTOP) the moment the link message reaches the link proxy, then the message goes on (into the stopped node, or from it to its peer) and the node stays stopped until the other holder has acted",
  at: ['message'],
  topologies: ['single'],
  inWords: (boundary, at) =>
    `A's node ${boundary.link?.aNode ?? ''} was stopped (SIGSTOP) the moment the message ${at} reached the link proxy, then the message went on`,
};
