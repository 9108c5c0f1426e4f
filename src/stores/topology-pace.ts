/**
 * How long a topology's own store faults take to land, on a loaded machine with several explored
 * points landing them at once: a fact of the topology that a lease explored there must outlive (an
 * oracle's explore spec reads it through src/oracle/store-facts.ts, never by the topology's name),
 * and which topologies have a master that fails over to a replica at all (scenarios/failover.ts).
 */
import type { TopologyKind } from './topology.ts';

export interface TopologyPace {
  /**
   * Its master fails over to a replica: how much longer than a promotion the harness makes itself
   * (REPLICAOF NO ONE and the front door redirected, ~0.1–0.4 s) the failover takes (ms). Absent:
   * no replica to fail over to.
   */
  readonly failoverSlowerByMs?: number;
  /** Its masters are restarted (a Redlock master, SHUTDOWN NOSAVE): how long a restart takes at worst (ms). Absent: none is. */
  readonly restartMs?: number;
  /**
   * Its members' faults land themselves (a member paused or cut off): the shortest lease an explored
   * point there takes (ms), the family's floor rounded to what its server reports. Absent: not a member topology.
   */
  readonly memberLeaseMs?: number;
  /** Why these figures, for a reader who must change them. */
  readonly why: string;
}

const PACES: Readonly<Record<TopologyKind, TopologyPace>> = {
  single: { why: 'one server: no store fault of its own' },
  replicated: {
    failoverSlowerByMs: 0,
    why: 'the harness promotes a replica itself (REPLICAOF NO ONE) and redirects the front door at once',
  },
  sentinel: {
    failoverSlowerByMs: 5000,
    why: 'the Sentinels see the master down (down-after 200 ms), elect a leader and promote: ~2 s alone, longer with several points failing over at once on a loaded machine',
  },
  redlock: {
    restartMs: 1000,
    why: 'a master restarted empty is back in ~0.1–0.8 s locally at load 20, in ~1 s in a container',
  },
  etcd: {
    memberLeaseMs: 2000,
    why: "the members' faults land themselves (a member paused or cut off): no failover or restart to wait for; a 2 s lease is etcd's floor with a 100 ms election timeout, in whole seconds as etcd reports a TTL",
  },
  zookeeper: {
    memberLeaseMs: 2000,
    why: "the members' faults land themselves (a member paused or cut off): no failover or restart to wait for; a ZooKeeper session of 2 s",
  },
};

/** The pace of `kind`'s own faults. */
export function topologyPace(kind: TopologyKind): TopologyPace {
  return PACES[kind];
}
