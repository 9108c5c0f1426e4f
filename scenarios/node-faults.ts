/**
 * A fault on one master of a Redlock topology, as data and as a scenario step: which node, what
 * is done to it, and for how long — so a scenario (or an exploration) can land it at any boundary
 * of a holder's run. Every fault goes into the fault log and its end into the history.
 *
 * - restart: SHUTDOWN NOSAVE, then the same node started again at once, empty, on its own port
 *   (a master with no persistence that crashed and came back: every lock it held is forgotten);
 * - restart-late: the same, but the node stays down for `ms` (longer than the TTL: Redlock's
 *   "delayed restarts", so no lock it forgot can still be live elsewhere when it returns);
 * - clock-ahead: the node's wall clock stepped `ms` ahead (the clock-offset library), so every key
 *   there expires by its own clock that much early.
 */
import type { Scenario } from '../src/oracle/scenario.ts';
import type { StoreTopology } from '../src/stores/topology.ts';

export const NODE_FAULTS = ['restart', 'restart-late', 'clock-ahead'] as const;
export type NodeFaultKind = (typeof NODE_FAULTS)[number];

export interface NodeFault {
  node: string;
  kind: NodeFaultKind;
  /** restart-late: how long the node stays down; clock-ahead: how far its clock is stepped (ms). restart: 0. */
  ms: number;
}

/** What the fault did, in harness ms: when it began, and (a restart) when the node was down and up again. */
export interface NodeFaultOutcome {
  fault: NodeFault;
  appliedAt: number;
  stoppedAt?: number;
  startedAt?: number;
}

export function nodeFaultInWords({ node, kind, ms }: NodeFault): string {
  if (kind === 'clock-ahead') return `${node}'s clock stepped ${ms} ms ahead`;
  return kind === 'restart'
    ? `${node} restarted without persistence (SHUTDOWN NOSAVE, started again at once, empty)`
    : `${node} restarted without persistence, down for ${ms} ms before it started again empty`;
}

/** Start the fault; `done` resolves once it has fully landed (a restarted node is up again). */
export function startNodeFault(
  s: Scenario,
  topology: StoreTopology,
  fault: NodeFault,
): { appliedAt: number; done: Promise<NodeFaultOutcome> } {
  const words = nodeFaultInWords(fault);
  s.progress(words);
  const record = s.faults.apply('store', undefined, words, { topology: topology.name, ...fault });
  const appliedAt = record.appliedAt;
  const done = (async (): Promise<NodeFaultOutcome> => {
    if (fault.kind === 'clock-ahead') {
      await topology.stepClock(fault.node, fault.ms); // it stays ahead to the end of the run
      return { fault, appliedAt };
    }
    const { stoppedAt, startedAt } = await topology.restart(fault.node, fault.ms, () => s.now());
    s.faults.lift(record, { stoppedAt, startedAt });
    s.note(`${fault.node} is up again, empty (down ${(startedAt - stoppedAt).toFixed(0)} ms)`);
    return { fault, appliedAt, stoppedAt, startedAt };
  })();
  done.catch(() => undefined); // awaited by the scenario
  return { appliedAt, done };
}
