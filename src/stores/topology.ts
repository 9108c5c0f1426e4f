/**
 * A store of several nodes (a Redis master with replicas, with Sentinels, or N independent masters
 * for Redlock; an etcd cluster or a ZooKeeper ensemble of N members): what `--topology` asks for,
 * and what a started Redis topology offers a scenario — every node's address and role, what a
 * target connects to, and the store faults only a topology has (replication held, a failover, a
 * node restarted, one node's clock stepped, one node paused). A coordination service's members
 * are started by its family and offered as src/stores/topology-members.ts's MemberCluster.
 */
import { UsageError } from '../core/errors.ts';

export const TOPOLOGY_KINDS = ['single', 'replicated', 'sentinel', 'redlock', 'etcd', 'zookeeper'] as const;
export type TopologyKind = (typeof TOPOLOGY_KINDS)[number];

export interface TopologyRequest {
  kind: TopologyKind;
  /** replicated / sentinel: replicas of the one master (default 1). */
  replicas: number;
  /** redlock: independent masters (default 5). */
  masters: number;
  /** etcd / zookeeper: the members of one cluster or ensemble (default 3); absent on a Redis topology. */
  members?: number;
}

/** A topology of a coordination service's members (`etcd:N`, `zookeeper:N`), started by that store's family. */
export function isMemberTopology(
  request: TopologyRequest | undefined,
): request is TopologyRequest & { members: number } {
  return request?.members !== undefined;
}

/** `single`, `replicated[:R]`, `sentinel[:R]`, `redlock[:N]`, `etcd[:N]` or `zookeeper[:N]`, as `--topology` takes it. */
export function parseTopology(text: string): TopologyRequest {
  const match = /^(single|replicated|sentinel|redlock|etcd|zookeeper)(?::(\d+))?$/.exec(text.trim());
  if (!match)
    throw new UsageError(
      `--topology "${text}": expected single, replicated[:R] (a master and R replicas), sentinel[:R] (replicated plus three Sentinels), redlock[:N] (N independent masters), etcd[:N] (an etcd cluster of N members) or zookeeper[:N] (a ZooKeeper ensemble of N servers)`,
    );
  const kind = match[1] as TopologyKind;
  const n = match[2] === undefined ? undefined : Number(match[2]);
  if (kind === 'etcd' || kind === 'zookeeper') {
    if (n !== undefined && (n < 1 || n > 7 || n % 2 === 0))
      throw new UsageError(
        `--topology ${kind}:${n}: an odd number of members between 1 and 7 (a quorum must survive a member's loss)`,
      );
    return { kind, replicas: 0, masters: 0, members: n ?? 3 };
  }
  if (kind === 'single' && n !== undefined) throw new UsageError('--topology single takes no count');
  if ((kind === 'replicated' || kind === 'sentinel') && n !== undefined && (n < 1 || n > 5))
    throw new UsageError(`--topology ${kind}:${n}: between 1 and 5 replicas`);
  if (kind === 'redlock' && n !== undefined && (n < 1 || n > 9 || n % 2 === 0))
    throw new UsageError(`--topology redlock:${n}: an odd number of masters between 1 and 9 (a majority must exist)`);
  return { kind, replicas: kind === 'redlock' ? 0 : (n ?? 1), masters: kind === 'redlock' ? (n ?? 5) : 1 };
}

export function topologyName(request: TopologyRequest): string {
  if (request.kind === 'single') return 'single';
  if (isMemberTopology(request)) return `${request.kind}:${request.members}`;
  return request.kind === 'redlock' ? `redlock:${request.masters}` : `${request.kind}:${request.replicas}`;
}

/** A counter node (redlock): a plain server beside the masters, no part of the lock's quorum, for a fencing counter. */
export type NodeRole = 'master' | 'replica' | 'sentinel' | 'counter';

/** One node of a started topology. */
export interface TopologyNode {
  /** "m1", "r1", "s1": stable through the run, named in the evidence. */
  readonly name: string;
  readonly port: number;
  /** The node's own address (not through any relay). */
  readonly url: string;
  /** The role the harness gave it; a failover changes it (read the node for the truth). */
  role: NodeRole;
  /** Whether its process is running now. */
  readonly running: boolean;
}

/** What a failover did, for the evidence. */
export interface FailoverRecord {
  /** The master SIGKILLed, and the replica promoted in its place. */
  killed: string;
  promoted: string;
  /** How the replica was promoted ("REPLICAOF NO ONE" or "Sentinel failover"), and how clients found it. */
  how: string;
  redirected: string;
  /** Harness ms of the kill and of the promoted node answering as master. */
  killedAt: number;
  promotedAt: number;
}

/** Replication to every replica held at the harness's link relays until lifted. */
export interface ReplicationHold {
  readonly since: number;
  /** Replication bytes kept from the replicas so far. */
  heldBytes(): number;
  lift(): void;
}

/** What the holders connect to on a topology (TargetEnv's url, urls, sentinels, masterName). */
export interface TopologyEndpoints {
  /** The master (through the topology's front door, which a failover redirects), or the first master. */
  url: string;
  /** Every master's own URL (redlock: N of them). */
  urls: string[];
  /** Sentinel URLs, with the name of the master they watch. */
  sentinels?: string[];
  masterName?: string;
  /** redlock: a separate server that is not one of the masters (a fencing counter that no master's fault moves). */
  counterUrl?: string;
}

/** A started topology: its nodes, its endpoints, and the store faults only it has. */
export interface StoreTopology {
  readonly request: TopologyRequest;
  /** "replicated:1", "sentinel:1", "redlock:5". */
  readonly name: string;
  readonly nodes: readonly TopologyNode[];
  readonly endpoints: TopologyEndpoints;
  /** The node currently master (replicated, sentinel). */
  master(): TopologyNode;
  /** Hold the master's replication stream to every replica (a write on the master then reaches none). */
  holdReplication(): ReplicationHold;
  /** Wait until every replica has acknowledged the master's replication offset (or throw after `timeoutMs`). */
  replicasCaughtUp(timeoutMs: number): Promise<void>;
  /** SIGKILL the master and promote a replica (Sentinel's failover, else REPLICAOF NO ONE and the front door redirected). */
  failover(timeoutMs: number, now: () => number): Promise<FailoverRecord>;
  /** One master restarted with an empty dataset on its own port (SHUTDOWN NOSAVE), after `downMs`; times on `now`. */
  restart(node: string, downMs: number, now: () => number): Promise<{ stoppedAt: number; startedAt: number }>;
  /** One node's wall clock stepped to real time + `offsetMs` (redlock nodes run with the clock-offset library). */
  stepClock(node: string, offsetMs: number): Promise<void>;
  /** SIGSTOP / SIGCONT one node. */
  pause(node: string): Promise<void>;
  resume(node: string): Promise<void>;
  stop(): Promise<void>;
}
