/**
 * An etcd member's command line: its name, loopback client and peer URLs, data dir, the cluster it
 * starts with, and raft ticks short enough for test leases (a 10 ms heartbeat, a 100 ms election
 * timeout). Used by the one-member recipe (recipe.ts, and in its container) and by a cluster
 * (cluster.ts).
 */

/** Raft's heartbeat and election timeout, ms: the election timeout sets etcd's lease floor. */
export const HEARTBEAT_MS = 10;
export const ELECTION_TIMEOUT_MS = 100;

/** The server binary: LOCK_ORACLES_ETCD_SERVER points at another build. */
export function etcdBinary(): string {
  return process.env.LOCK_ORACLES_ETCD_SERVER || 'etcd';
}

/** A member of a cluster: its name and the peers it starts with (`--initial-cluster`: every member's name=peer URL). */
export interface MemberOf {
  name: string;
  initialCluster: string;
  /** The peer port the others are told to dial (a relay in front of `peerPort`), when not `peerPort` itself. */
  advertisedPeerPort?: number;
}

/**
 * One member (alone: m1), listening for clients on `clientPort` and for peers on `peerPort`, loopback
 * only. `logLevel` info in a container: the line the container runtime waits for ("serving client
 * traffic insecurely", 3.4's zap logger; it prints no "ready to serve client requests") is at info.
 */
export function memberArgs(
  clientPort: number,
  peerPort: number,
  dataDir: string,
  logLevel = 'warn',
  member?: MemberOf,
): string[] {
  const client = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const advertised = `http://127.0.0.1:${member?.advertisedPeerPort ?? peerPort}`;
  return [
    `--name=${member?.name ?? 'm1'}`,
    `--data-dir=${dataDir}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${advertised}`,
    `--initial-cluster=${member?.initialCluster ?? `m1=${advertised}`}`,
    '--initial-cluster-state=new',
    `--heartbeat-interval=${HEARTBEAT_MS}`,
    `--election-timeout=${ELECTION_TIMEOUT_MS}`,
    '--logger=zap',
    `--log-level=${logLevel}`,
  ];
}
