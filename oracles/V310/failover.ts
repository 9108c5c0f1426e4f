/**
 * V310 --variant failover (--topology replicated|sentinel): the master's replication is held across
 * A's acquire, so A's lock lives on the master alone; then the master is SIGKILLed and a replica
 * promoted, and B takes the lock on the promoted node while A's lease still lives by the dead
 * master's clock; A, which never knew, releases. Its release reaches the promoted node, where the
 * key is B's: a release without an owner check deletes it. Records V310Observations.failover.
 */
import type { Check } from '../../src/core/judgement.ts';
import { lostWithMaster, nodesInWords, type NodeLock } from '../../src/judging/failover-loss.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import { failOver, holdReplication, lockOnNodes, replicatedTopology } from '../../scenarios/failover.ts';

/** What the failover did to A's lock. */
export interface V310Failover {
  /** The lock on every data node just before the master was killed. */
  nodes: NodeLock[];
  /** Replication bytes kept from the replicas (A's SET among them). */
  heldBytes: number;
  killed: string;
  promoted: string;
  how: string;
  /** Harness ms until which A's lease surely lived by the master's PTTL (null: no key there). */
  aLeaseUntil: number | null;
}

export const LOST_IN_FAILOVER = "A's lock was lost in the failover";

export const FAILOVER_PRECONDITION = {
  name: LOST_IN_FAILOVER,
  checks:
    "--variant failover: the master's replication was held across A's acquire, the master held A's key and no replica did when it was SIGKILLed, and a replica was promoted",
};

/** Replication held before A's acquire: returns the step that, once A holds the lock, fails the master over. */
export async function failoverAfterAcquire(s: Scenario, timeoutMs: number) {
  const topology = replicatedTopology(s, 'V310 --variant failover');
  const replication = await holdReplication(s, topology, timeoutMs);
  return async (): Promise<V310Failover> => {
    const { nodes, masterLeaseUntil } = await lockOnNodes(s, topology, "at the failover: A's lock on every node");
    const failover = await failOver(s, topology, timeoutMs);
    const heldBytes = replication.lift();
    const { killed, promoted, how } = failover;
    return { nodes, heldBytes, killed, promoted, how, aLeaseUntil: masterLeaseUntil };
  };
}

export function lostInFailover(f: V310Failover): Check {
  const lost = lostWithMaster(f.nodes, f.killed, f.heldBytes);
  return {
    name: LOST_IN_FAILOVER,
    held: lost,
    detail:
      `${f.heldBytes} replication byte(s) kept from the replicas; at the failover: ${nodesInWords(f.nodes)}; ${f.promoted} promoted (${f.how})` +
      (lost ? '' : ": A's lock was not on the master alone, so the failover did not lose it"),
  };
}
