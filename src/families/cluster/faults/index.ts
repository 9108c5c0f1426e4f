/**
 * The faults only a cluster of the target's own nodes (--store cluster) has: a message on a
 * node-to-node link held, A's node paused as one arrives, a node's wall clock stepped as one
 * arrives. One file each; the cluster family contributes them (StoreFamily.faults).
 */
import type { Fault } from '../../../core/fault.ts';
import { HOLD_MESSAGE } from './hold-message.ts';
import { NODE_CLOCK_AHEAD } from './node-clock-ahead.ts';
import { NODE_CLOCK_BACK } from './node-clock-back.ts';
import { PAUSE_NODE } from './pause-node.ts';

export const LINK_FAULTS: readonly Fault[] = [HOLD_MESSAGE, PAUSE_NODE, NODE_CLOCK_AHEAD, NODE_CLOCK_BACK];
