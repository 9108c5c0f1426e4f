/**
 * The faults that play their own flow (./fault-flow.ts), by the name the fault registry gives them
 * (src/faults/registry.ts): an oracle asks for the flow of the run's fault — the explored point's,
 * or the one its `--fault` / `--variant` names — and plays it at the moment it names, never naming
 * a topology or a flow itself. A fault without one here lands as a stop of A (or lands itself).
 */
import type { ExploreFault } from '../src/core/fault.ts';
import type { FailoverLoss } from '../src/judging/failover-loss.ts';
import { FAILOVER_FLOW, type FailoverRecords } from './failover-flow.ts';
import type { FaultFlow } from './fault-flow.ts';
import { PAUSE_IN_ACQUIRE_FLOW, type AcquireStopRecords } from './redlock-pause-in-acquire.ts';
import { QUORUM_FLOW, type QuorumRecords } from './redlock-quorum.ts';

/** What any of the flows saw. */
export type FaultFlowRecords = FailoverRecords | QuorumRecords | AcquireStopRecords;
/** What any of the flows that an oracle can arm once locked did (./fault-flow.ts onceLocked). */
export type FaultFlowLanded = FailoverLoss;

const FLOWS: ReadonlyMap<ExploreFault, FaultFlow<FaultFlowRecords, FaultFlowLanded>> = new Map<
  ExploreFault,
  FaultFlow<FaultFlowRecords, FaultFlowLanded>
>([
  ['failover', FAILOVER_FLOW],
  ['node-restart', QUORUM_FLOW],
  ['master-clock-ahead', QUORUM_FLOW],
  ['pause-in-acquire', PAUSE_IN_ACQUIRE_FLOW],
]);

/** The flow `fault` plays, or undefined when it has none (it is a stop of A, or it lands itself). */
export function flowOf(fault: ExploreFault | undefined): FaultFlow<FaultFlowRecords, FaultFlowLanded> | undefined {
  return fault === undefined ? undefined : FLOWS.get(fault);
}
