/**
 * The faults only a cluster of the target's own nodes (--store cluster) has, one file each with its
 * doc, its landing and where it does not apply: at a message on a node-to-node link (held, A's
 * node paused as it arrives, a node's wall clock stepped as it arrives: ./at-message.ts), and A's
 * node partitioned from the others (the cluster's cut-off). The cluster family contributes them
 * (StoreFamily.faults); src/faults/registry.ts collects them with every other fault.
 */
import type { Fault } from '../../../core/fault.ts';
import { HOLD_MESSAGE } from './hold-message.ts';
import { NODE_CLOCK_AHEAD } from './node-clock-ahead.ts';
import { NODE_CLOCK_BACK } from './node-clock-back.ts';
import { NODE_PARTITIONED } from './node-partitioned.ts';
import { PAUSE_NODE } from './pause-node.ts';

export { NODE_PARTITIONED };

export const CLUSTER_FAULTS: readonly Fault[] = [
  HOLD_MESSAGE,
  PAUSE_NODE,
  NODE_CLOCK_AHEAD,
  NODE_CLOCK_BACK,
  NODE_PARTITIONED,
];
