/**
 * The faults only a Redis topology (--topology replicated|sentinel|redlock:N) has: a failover, a
 * master of a Redlock majority restarted empty or its clock stepped ahead, A paused inside its
 * multi-master acquire. One file each; the Redis family contributes them (StoreFamily.faults).
 */
import type { Fault } from '../../../../core/fault.ts';
import { FAILOVER } from './failover.ts';
import { MASTER_CLOCK_AHEAD } from './master-clock-ahead.ts';
import { NODE_RESTART } from './node-restart.ts';
import { PAUSE_IN_ACQUIRE } from './pause-in-acquire.ts';

export const TOPOLOGY_FAULTS: readonly Fault[] = [FAILOVER, NODE_RESTART, MASTER_CLOCK_AHEAD, PAUSE_IN_ACQUIRE];
