/**
 * Store runtimes: how a scratch store is started, what it can do, and how it is stopped.
 *
 * A runtime (local processes, or containers) starts a `StoreRecipe` and returns a
 * `StartedStore`. Optional capabilities follow Jepsen's db/Pause and db/Kill: an oracle only
 * schedules a store fault where the started store offers it, and says so when it does not.
 */
import { StoreUnavailableError } from '../core/errors.ts';
import type { StoreTopology, TopologyRequest } from './topology.ts';
import type { MemberCluster } from './topology-members.ts';

/** `fs`: a scratch directory on this machine's filesystem, for file locks (src/families/fs/). */
/** `cluster`: the target's own nodes as processes, every link between them through the harness (src/families/cluster/). */
/** `etcd`: one etcd member (src/families/etcd/); `zookeeper`: one ZooKeeper server (src/families/zookeeper/). */
export type StoreKind = 'redis' | 'valkey' | 'postgres' | 'pgbouncer' | 'fs' | 'cluster' | 'etcd' | 'zookeeper';

/** Redis and Valkey speak the same protocol and commands: every Redis oracle runs on both. */
export function speaksRedis(kind: StoreKind): boolean {
  return kind === 'redis' || kind === 'valkey';
}
export type RuntimeName = 'local-process' | 'container';

export interface StoreRequest {
  kind: StoreKind;
  /** PgBouncer only: the pool mode ("transaction" is the hazardous one). */
  poolMode?: 'transaction' | 'session';
  /**
   * PgBouncer only: its server_reset_query, run on a server connection when a session-mode client
   * leaves (absent: PgBouncer's own default, DISCARD ALL, which also drops that session's advisory
   * locks; '' runs nothing, so the next client's session inherits them).
   */
  serverResetQuery?: string;
  /** Start the server with its wall clock offset by this many ms (needs the clock capability). */
  clockOffsetMs?: number;
  /** Several nodes of one store (--topology: replicated, sentinel, redlock); absent: one server. */
  topology?: TopologyRequest;
}

export interface StoreClock {
  /** How the offset is applied, for the evidence (e.g. "LD_PRELOAD clock-offset library"). */
  readonly mechanism: string;
  /** Step the server's wall clock to real time + offsetMs, at run time. */
  setOffsetMs(offsetMs: number): Promise<void>;
  /** The offset in force now. */
  offsetMs(): number;
}

export interface StoreCapabilities {
  /** SIGSTOP / SIGCONT the server process (container runtime: docker pause / unpause, the cgroup freezer). */
  pause?(): Promise<void>;
  resume?(): Promise<void>;
  /** SIGKILL the server process (container runtime: docker kill with SIGKILL). */
  kill?(): Promise<void>;
  /** The server's own wall clock. */
  clock?: StoreClock;
}

export interface StartedStore {
  readonly kind: StoreKind;
  readonly runtime: RuntimeName;
  /** The URL holders connect to (loopback). */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** The server's own version string, e.g. "7.0.15" or "PostgreSQL 15.10". */
  readonly version: string;
  /** Milliseconds from the start request until the store answered. */
  readonly startMs: number;
  /** For a proxy store (PgBouncer): the store behind it, for the harness's own probes. */
  readonly backend?: StartedStore;
  readonly capabilities: StoreCapabilities;
  /** A store of several nodes: every node, what holders connect to, the faults on nodes (src/stores/topology.ts). */
  readonly topology?: StoreTopology;
  /** A coordination service of several members (--topology etcd:N, zookeeper:N): `url` is m1's (src/stores/topology-members.ts). */
  readonly members?: MemberCluster;
  /** Stop the server and remove its files. Safe to call twice. */
  stop(): Promise<void>;
}

/** Everything a local-process recipe gets to start one server. */
export interface LocalStartContext {
  /** A free loopback port chosen for this server. */
  port: number;
  /** A fresh temp dir, removed by the runtime on every exit path. */
  dir: string;
  request: StoreRequest;
  /** Allocate another free loopback port (e.g. PgBouncer's backend). */
  freePort(): Promise<number>;
  /** Start another store through the same runtime (e.g. PgBouncer's Postgres). */
  startStore(request: StoreRequest): Promise<StartedStore>;
}

/** One member of a coordination service's cluster, to be started by a launcher (src/stores/member-launch.ts). */
export interface MemberSpec {
  kind: StoreKind;
  /** "m1", "m2", …: its dir's name in the run dir. */
  name: string;
  /** e.g. "etcd m2 :23791", for messages and cleanup. */
  label: string;
  /** Its client port on 127.0.0.1 (its peer ports are in its command line). */
  port: number;
  /** The command line, binary first, given the member's dir as the server sees it; `inContainer`: run in the store's image. */
  command(dir: string, inContainer: boolean): string[];
  /** Files it needs before it starts (zoo.cfg, myid), by path relative to its dir. */
  files?(dir: string): Array<{ path: string; content: string }>;
  /** A line the server prints as it starts (a container is waited for on it, then probed). */
  readyLog: RegExp;
  /** Asks the member its version on its client port; throws until it answers. */
  probe(): Promise<string>;
  /** How long it may take to answer (a JVM on a loaded machine takes seconds). */
  readyWithinMs: number;
}

/** A started member's server: what LocalMembers (src/stores/local-members.ts) pauses, resumes and kills. */
export interface MemberServer {
  /** Its process id where it runs on this machine's process table as the harness's child (a local process); absent in a container. */
  readonly pid?: number;
  /** Every instruction of the server stopped while its sockets stay open; resume lets it go on. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** SIGKILL (a container is then removed); resolves once it is gone. Safe to call twice. */
  stop(graceMs?: number): Promise<void>;
}

export interface LaunchedMember {
  server: MemberServer;
  version: string;
}

export type MemberLauncher = (spec: MemberSpec) => Promise<LaunchedMember>;

/** What a family gets to start its members, whatever runs them. */
export interface MembersStartContext {
  /** m1's client port (the store's port). */
  port: number;
  freePort(): Promise<number>;
  launch: MemberLauncher;
  /**
   * The members are local processes the harness tells apart by pid: their peer links pass through
   * relays it holds (src/stores/peer-relays.ts), so one can be cut off (member-partitioned).
   */
  peersThroughRelays?: boolean;
}

export type StartMembers = (
  ctx: MembersStartContext,
  size: number,
) => Promise<Omit<StartedStore, 'runtime' | 'startMs'>>;

/** What a container recipe gets to describe one server. */
export interface ContainerStartContext {
  request: StoreRequest;
  /** The store this one fronts (PgBouncer's Postgres), started first in its own container. */
  backend?: StartedStore;
  /**
   * A second free loopback port the runtime picked for a server that listens on two (etcd's peer
   * port). Never `port + 1`: that one may be any other socket's on this machine.
   */
  secondPort: number;
}

/**
 * What the container runtime needs to run a recipe's server from its image (docker/images.json).
 * The container shares this machine's network namespace (Docker's "host" network), so the server
 * listens on a free loopback port of this machine that the runtime picks: no bridge network, no
 * port published on 0.0.0.0, no traffic off loopback. Hence no exposed/mapped port here: the port
 * is the host's. The same command must run in the locally built image and in the official one.
 */
export interface ContainerRecipe {
  /** The server's command line inside the image, listening on 127.0.0.1:`port` only. */
  command(port: number, ctx: ContainerStartContext): string[];
  /** Extra environment for the server, if it needs any. */
  env?: Record<string, string>;
  /** Files written into the container before it starts (e.g. PgBouncer's configuration). */
  files?(port: number, ctx: ContainerStartContext): Array<{ path: string; content: string }>;
  /** A store to start first, in its own container, and hand to `command` (PgBouncer: its Postgres). */
  backend?(request: StoreRequest): StoreRequest;
  /** A line the server prints once it accepts connections (testcontainers' log wait strategy). */
  readyLog: RegExp;
  /** The URL holders connect to, for a server on 127.0.0.1:`port`. */
  url(port: number): string;
  /** Ask the running server its own version (e.g. INFO server); throws until it answers. */
  version(port: number, ctx: ContainerStartContext): Promise<string>;
  /** A coordination service's members (--topology etcd:N, zookeeper:N), one container each (src/stores/container-members.ts). */
  members?: StartMembers;
}

/** A store definition: how to start it as a local process, and how to run it in its container image. */
export interface StoreRecipe {
  kind: StoreKind;
  /** How to run the server in its image (docker/images.json); absent = the store is local-process only. */
  container?: ContainerRecipe;
  /** Why a store without container facts has none, for the container runtime's error (the fs store: a directory on this machine). */
  noContainer?: string;
  /** Null when this machine can run it locally; otherwise why not, and the command that fixes it. */
  missing(): Promise<StoreUnavailableError | null>;
  startLocal(ctx: LocalStartContext): Promise<Omit<StartedStore, 'runtime' | 'startMs'>>;
}

/** Finds the recipe for a kind of store: the store families' (src/families/recipes.ts), handed to a runtime. */
export type RecipeBook = (kind: StoreKind) => StoreRecipe;
