/**
 * Store faults on a replicated topology, as scenario steps: the master's replication stream held
 * at the harness's link relays (so a write on the master reaches no replica), then the master
 * SIGKILLed and a replica promoted (by the Sentinels, or REPLICAOF NO ONE and the front door
 * redirected): the write the replicas never got is lost, as the Redis documentation's own
 * failover example says. Every step goes into the fault log; the lock is read on every node.
 */
import { UsageError } from '../src/core/errors.ts';
import type { Scenario } from '../src/oracle/scenario.ts';
import type { FailoverRecord, StoreTopology } from '../src/stores/topology.ts';
import { topologyPace } from '../src/stores/topology-pace.ts';
import type { FailoverLoss, NodeLock } from '../src/judging/failover-loss.ts';

/** The topology's replicas to fail over to; a usage error where its pace declares no failover (one server, Redlock). */
export function replicatedTopology(s: Scenario, why: string): StoreTopology {
  const topology = s.store.topology;
  if (!topology || topologyPace(topology.request.kind).failoverSlowerByMs === undefined)
    throw new UsageError(`${why} needs a master with replicas: run it with --topology replicated (or sentinel)`);
  return topology;
}

/** Replication held from now: returns the lift, which records how many bytes the replicas were kept from. */
export async function holdReplication(s: Scenario, topology: StoreTopology, timeoutMs: number) {
  await topology.replicasCaughtUp(timeoutMs);
  const hold = topology.holdReplication();
  const record = s.faults.apply('store', undefined, "held the master's replication stream to every replica", {
    topology: topology.name,
    master: topology.master().name,
  });
  return {
    heldBytes: () => hold.heldBytes(),
    lift: () => {
      const heldBytes = hold.heldBytes();
      hold.lift();
      s.faults.lift(record, { heldBytes });
      return heldBytes;
    },
  };
}

/**
 * The lock on every data node now (role, replication offset, the key and its PTTL there), and
 * until when it surely lives on the master by the master's own clock (null: no key there).
 */
export async function lockOnNodes(
  s: Scenario,
  topology: StoreTopology,
  label: string,
): Promise<{ nodes: NodeLock[]; masterLeaseUntil: number | null }> {
  const seen = await s.observeLock(label);
  const nodes = ((seen as { nodes?: NodeLock[] }).nodes ?? []).map(({ node, role, offset, exists, value, pttlMs }) => ({
    node,
    role,
    offset,
    exists,
    value,
    pttlMs,
  }));
  const master = nodes.find((n) => n.node === topology.master().name);
  return { nodes, masterLeaseUntil: master?.exists && master.pttlMs > 0 ? seen.sentAt + master.pttlMs : null };
}

/** SIGKILL the master and promote a replica; the fault log and the history say which and how. */
export async function failOver(s: Scenario, topology: StoreTopology, timeoutMs: number): Promise<FailoverRecord> {
  s.progress(`SIGKILL of master ${topology.master().name}; promoting a replica`);
  const record = s.faults.apply('store', undefined, `SIGKILLed master ${topology.master().name}`, {
    topology: topology.name,
  });
  const failover = await topology.failover(timeoutMs, () => s.now());
  s.faults.lift(record, { ...failover });
  s.note(`${failover.promoted} promoted in place of ${failover.killed}: ${failover.how}; ${failover.redirected}`, {
    failover,
  });
  return failover;
}

/**
 * The failover as one step two oracles share: replication held from now (before A takes the lock);
 * the returned step, once A holds it, reads the lock on every node, SIGKILLs the master, promotes a
 * replica and lifts the hold. `why` names the selection in a usage error (no replicas to fail over to).
 */
export async function failoverOnceLocked(
  s: Scenario,
  why: string,
  timeoutMs: number,
): Promise<() => Promise<FailoverLoss>> {
  const topology = replicatedTopology(s, why);
  const replication = await holdReplication(s, topology, timeoutMs);
  return async () => {
    const { nodes, masterLeaseUntil } = await lockOnNodes(s, topology, "at the failover: A's lock on every node");
    const { killed, promoted, how, promotedAt } = await failOver(s, topology, timeoutMs);
    const heldBytes = replication.lift();
    return { nodes, heldBytes, killed, promoted, how, promotedAt, aLeaseUntil: masterLeaseUntil };
  };
}
